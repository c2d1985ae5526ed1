/**
 * The part of the sandbox runtime's API (`@anthropic-ai/sandbox-runtime`) that Ralph calls. The
 * package is not one of Ralph's build dependencies (it is installed on first use, see
 * sandbox-runtime-package.ts), so its shape is written here; the sandbox tests run every call
 * below against the real package, which is how a change in it would show.
 */

export interface SandboxRuntimeConfig {
  network: { allowedDomains: string[]; deniedDomains: string[] };
  filesystem: {
    denyRead: string[];
    allowWrite: string[];
    denyWrite: { path: string; literal: true }[];
  };
}

export interface SandboxDependencyCheck {
  errors: string[];
  warnings: string[];
}

export interface SandboxViolation {
  line: string;
}

export interface SandboxManagerApi {
  isSupportedPlatform(): boolean;
  checkDependencies(): SandboxDependencyCheck;
  initialize(config: SandboxRuntimeConfig, ask: undefined, enableLogMonitor: boolean): Promise<void>;
  reset(): Promise<void>;
  wrapWithSandboxArgv(
    command: string,
    binShell: undefined,
    customConfig: undefined,
    abortSignal: undefined,
    cwd: string,
    options: { commandId: string; commandText: string },
  ): Promise<{ argv: string[] }>;
  cleanupAfterCommand(): void;
  getSandboxViolationStore(): { getViolationsForCommand(commandId: string): SandboxViolation[] };
  getProxyAuthToken(): string | undefined;
}

export interface SandboxRuntimeModule {
  SandboxManager: SandboxManagerApi;
}

/** Whether a loaded module looks like the runtime: its manager has the calls above. */
export function isSandboxRuntimeModule(value: unknown): value is SandboxRuntimeModule {
  if (typeof value !== 'object' || value === null || !('SandboxManager' in value)) return false;
  const manager: unknown = value.SandboxManager;
  if ((typeof manager !== 'object' && typeof manager !== 'function') || manager === null) return false;
  const calls = [
    'isSupportedPlatform',
    'checkDependencies',
    'initialize',
    'reset',
    'wrapWithSandboxArgv',
    'cleanupAfterCommand',
    'getSandboxViolationStore',
    'getProxyAuthToken',
  ];
  return calls.every((name) => typeof (manager as Record<string, unknown>)[name] === 'function');
}
