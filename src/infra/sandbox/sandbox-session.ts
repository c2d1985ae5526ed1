import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { refusalOf, RefusalTally, type Refusal } from '../../core/sandbox-refusals.js';
import type { SandboxPolicy } from '../../core/sandbox-policy.js';
import { shellCommand, shellQuote } from '../../core/shell-words.js';
import { start, type CommandContainer, type ContainedCommand, type ProcessOutcome } from '../process.js';
import { nextCommandMarker } from '../run-marker.js';
import { sandboxStartFailure } from './sandbox-failure.js';

type Runtime = typeof import('@anthropic-ai/sandbox-runtime');

/** Process names of the sandbox itself, around the contained command. */
const SANDBOX_PLUMBING: ReadonlySet<string> = new Set(['bwrap', 'socat', 'apply-seccomp']);
type Manager = Runtime['SandboxManager'];

/** Whether `path` is `dir` or lies under it (both absolute, as given). */
function isInsideDir(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface SandboxSessionOptions {
  project: string;
  policy: SandboxPolicy;
  /** The environment the start-up check runs with (PATH finds bwrap and socat). */
  env: NodeJS.ProcessEnv;
  /** Told of each refusal as a contained command ends, with the command's role ("agent", "verify"). */
  onRefusal?: (refusal: Refusal, role: string) => void;
}

/** A run's sandbox: started once, every contained command goes through it, closed once at the end. */
export interface SandboxSession extends CommandContainer {
  readonly policy: SandboxPolicy;
  /** The proxy's password for this run, a secret for the redactor. */
  readonly proxySecret: string | undefined;
  /** Every refusal of the run so far. */
  readonly tally: RefusalTally;
  close(): Promise<void>;
}

/**
 * Starts the sandbox runtime for one run: its dependency check, its proxy, and a contained
 * `true`, since without user namespaces the runtime's own checks pass and only the first
 * contained command fails. Throws a RalphError saying what is missing when it cannot work.
 *
 * The runtime is loaded only here, so a run without --sandbox never pays for it, and it is
 * initialised once per run: initialising it again while a run goes on breaks its network.
 */
export async function openSandboxSession(options: SandboxSessionOptions): Promise<SandboxSession> {
  const { SandboxManager: manager } = await import('@anthropic-ai/sandbox-runtime');
  if (!manager.isSupportedPlatform()) throw sandboxStartFailure(`this platform (${process.platform}) is not supported by the sandbox runtime`);
  const check = manager.checkDependencies();
  if (check.errors.length > 0) throw sandboxStartFailure(check.errors.join('; '));
  const { policy } = options;
  for (const dir of policy.agentDirs) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Where contained commands leave their exit status: writable inside whatever the policy says.
  const statusDir = mkdtempSync(join(tmpdir(), 'ralph-sandbox-'));
  // The runtime starts its proxy bridges (socat) with this process's environment: with a run
  // marker in it they end with the run, even one killed with -9 (the watchdog and the next
  // start end every process carrying the run's marker).
  const marker = nextCommandMarker();
  const before = process.env[marker.name];
  process.env[marker.name] = marker.value;
  try {
    await manager.initialize(
      {
        network: { allowedDomains: policy.allowedDomains, deniedDomains: [] },
        filesystem: {
          denyRead: policy.denyRead,
          allowWrite: [...policy.allowWrite, statusDir],
          // Literal paths: a project or home folder name with `*` or `[` in it is no pattern.
          denyWrite: policy.denyWrite.map((path) => ({ path, literal: true as const })),
        },
      },
      undefined,
      // Reports refused writes on Linux (and the system log's refusals on macOS).
      true,
    );
  } catch (error) {
    await manager.reset().catch(() => undefined);
    rmSync(statusDir, { recursive: true, force: true });
    throw sandboxStartFailure(error instanceof Error ? error.message : String(error));
  } finally {
    if (before === undefined) delete process.env[marker.name];
    else process.env[marker.name] = before;
  }
  const session = createSession(manager, options, statusDir);
  try {
    await probeSandbox(session, options);
  } catch (error) {
    await session.close();
    throw error;
  }
  return session;
}

function createSession(manager: Manager, options: SandboxSessionOptions, statusDir: string): SandboxSession {
  const tally = new RefusalTally();
  let commands = 0;
  let closed = false;
  const contain = async (file: string, args: readonly string[], role: string, tmpDir?: string): Promise<ContainedCommand> => {
    commands += 1;
    const statusFile = join(statusDir, `${commands}.status`);
    const scriptFile = join(statusDir, `${commands}.sh`);
    // 128 random bits: the runtime keys refusals by it, and the id must not be guessable from inside.
    const commandId = randomBytes(16).toString('base64url');
    // The wrapper's exit code is not the command's (a contained command that is killed leaves
    // its wrapper exiting 0), so the command's own status is written where Ralph reads it.
    // The runtime points TMPDIR at a folder of its own under /tmp, writable only where /tmp is:
    // the agent gets the temp dir the policy lets it write instead, or the folder the command was
    // given inside it (a call's own temporary directory, removed after the call).
    const givenTmp = tmpDir !== undefined && isInsideDir(tmpDir, options.policy.tmpDir) ? tmpDir : options.policy.tmpDir;
    const localApi = options.policy.localApi ? 'NO_PROXY= no_proxy= ' : '';
    // The command line goes in a script: quoted twice more inside the wrapper's own command
    // line, a long prompt would pass the system's limit for one argument.
    writeFileSync(scriptFile, `exec env TMPDIR=${shellQuote(givenTmp)} ${localApi}${shellCommand([file, ...args])}\n`, { mode: 0o600 });
    const inner = `sh ${shellQuote(scriptFile)}; printf '%s' "$?" > ${shellQuote(statusFile)}`;
    const wrapped = await manager.wrapWithSandboxArgv(inner, undefined, undefined, undefined, options.project, { commandId, commandText: role });
    const [wrapperFile, ...wrapperArgs] = wrapped.argv;
    if (wrapperFile === undefined) throw new Error('the sandbox runtime returned an empty command line');
    return {
      file: wrapperFile,
      args: wrapperArgs,
      settle: (outcome) => {
        // The placeholders the runtime created for this command go as soon as it ends.
        manager.cleanupAfterCommand();
        rmSync(scriptFile, { force: true });
        const refusals = manager
          .getSandboxViolationStore()
          .getViolationsForCommand(commandId)
          .map((violation) => refusalOf(violation.line));
        for (const refusal of refusals) {
          tally.add(refusal);
          options.onRefusal?.(refusal, role);
        }
        // The sandbox's own processes (bubblewrap's init, the proxy bridges) may outlive the wrapper
        // by a moment; they are stopped like anything else, but they are not the agent's.
        const stopped = outcome.stopped.filter((p) => !SANDBOX_PLUMBING.has(p.command));
        return { ...settleExit({ ...outcome, stopped }, statusFile), ...(refusals.length > 0 ? { refusals } : {}) };
      },
    };
  };
  return {
    policy: options.policy,
    proxySecret: manager.getProxyAuthToken(),
    tally,
    contain,
    close: async () => {
      if (closed) return;
      closed = true;
      await manager.reset();
      rmSync(statusDir, { recursive: true, force: true });
    },
  };
}

/** The contained command's own exit, read from the status it left; none when it was killed before it could leave one. */
function settleExit(outcome: ProcessOutcome, statusFile: string): ProcessOutcome {
  if (outcome.end !== 'exited') return outcome;
  let status: string | undefined;
  try {
    status = readFileSync(statusFile, 'utf8').trim();
    rmSync(statusFile, { force: true });
  } catch {
    status = undefined;
  }
  const code = status !== undefined && /^\d{1,3}$/.test(status) ? Number(status) : undefined;
  if (code !== undefined) return { ...outcome, exitCode: code };
  // No status: the command never got to its end (a kill inside the sandbox). A wrapper that
  // says 0 all the same must not pass for a success.
  return { ...outcome, exitCode: undefined, signal: outcome.signal ?? 'SIGKILL' };
}

/** A contained `true` must run: the first sign that the machine can run the sandbox at all. */
async function probeSandbox(session: SandboxSession, options: SandboxSessionOptions): Promise<void> {
  const contained = await session.contain('true', [], 'sandbox-check');
  const wrapper = await start(contained.file, contained.args, { cwd: options.project, env: options.env, role: 'sandbox-check', timeoutMs: 30_000 });
  const outcome = contained.settle(wrapper);
  if (outcome.end === 'exited' && outcome.exitCode === 0) return;
  const said = wrapper.stderrTail.trim().split('\n').slice(-3).join(' ').trim();
  let how: string;
  if (wrapper.failure !== undefined) how = wrapper.failure;
  else if (wrapper.end === 'timeout') how = 'it did not finish within 30 s';
  else if (outcome.exitCode !== undefined) how = `it ended with exit code ${outcome.exitCode}`;
  else
    how = `the sandbox did not run it (the wrapper ended with ${wrapper.exitCode !== undefined ? `exit code ${wrapper.exitCode}` : (wrapper.signal ?? 'no status')})`;
  throw sandboxStartFailure(`a contained test command failed: ${how}${said ? ` (${said})` : ''}`);
}
