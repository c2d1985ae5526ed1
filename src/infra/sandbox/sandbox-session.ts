import { randomBytes } from 'node:crypto';
import { closeSync, constants, lstatSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { refusalOf, RefusalTally, type Refusal } from '../../core/sandbox-refusals.js';
import type { SandboxPolicy } from '../../core/sandbox-policy.js';
import { shellCommand, shellQuote } from '../../core/shell-words.js';
import { start, type CommandContainer, type ContainedCommand, type ProcessOutcome } from '../process.js';
import { nextCommandMarker } from '../run-marker.js';
import { gitProtectedPaths } from './git-protection.js';
import { sandboxStartFailure } from './sandbox-failure.js';
import type { SandboxManagerApi as Manager } from './sandbox-runtime-api.js';
import { loadSandboxRuntime } from './sandbox-runtime-package.js';

/** Process names of the sandbox itself, around the contained command. */
const SANDBOX_PLUMBING: ReadonlySet<string> = new Set(['bwrap', 'socat', 'apply-seccomp']);

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
  /** Told when the runtime has to be installed first (the first run with --sandbox). */
  say: (line: string) => void;
  /** Stops that install. */
  interrupt?: AbortSignal;
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
 * The runtime is loaded (and installed, the first time) only here, so a run without --sandbox
 * never pays for it, and it is initialised once per run: initialising it again while a run
 * goes on breaks its network.
 */
export async function openSandboxSession(options: SandboxSessionOptions): Promise<SandboxSession> {
  const { SandboxManager: manager } = await loadSandboxRuntime({ say: options.say, ...(options.interrupt ? { signal: options.interrupt } : {}) });
  if (!manager.isSupportedPlatform()) throw sandboxStartFailure(`this platform (${process.platform}) is not supported by the sandbox runtime`);
  const check = manager.checkDependencies();
  if (check.errors.length > 0) throw sandboxStartFailure(check.errors.join('; '));
  const { policy } = options;
  for (const dir of policy.agentDirs) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // What git reads as configuration, and where it finds it: the agent may not change either.
  const gitFiles = await gitProtectedPaths(options.project);
  // Ralph's own files for the run (each command's script): a folder only Ralph can write. It lies
  // in the system temp dir, which contained commands may write, so the policy denies writes to
  // it by name: inside the sandbox it is read-only, and a name planted in it ahead of Ralph
  // (`<N>.sh` as a link to ~/.bashrc) cannot be.
  const ownDir = openOwnDir(mkdtempSync(join(tmpdir(), 'ralph-sandbox-')));
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
          allowWrite: policy.allowWrite,
          // Literal paths: a project or home folder name with `*` or `[` in it is no pattern.
          denyWrite: [...gitFiles, ownDir.path, ...policy.denyWrite].map((path) => ({ path, literal: true as const })),
        },
      },
      undefined,
      // Reports refused writes on Linux (and the system log's refusals on macOS).
      true,
    );
  } catch (error) {
    await manager.reset().catch(() => undefined);
    ownDir.remove();
    throw sandboxStartFailure(error instanceof Error ? error.message : String(error));
  } finally {
    if (before === undefined) delete process.env[marker.name];
    else process.env[marker.name] = before;
  }
  const session = createSession(manager, options, ownDir);
  try {
    await probeSandbox(session, options);
  } catch (error) {
    await session.close();
    throw error;
  }
  return session;
}

/** Ralph's private folder of a run, checked to be the very folder it made before each use. */
interface OwnDir {
  readonly path: string;
  /** Creates `name` in it with `text`: a new file, never through a link, never over anything. */
  create(name: string, text: string): string;
  /** Removes `name` from it (a file of Ralph's). */
  discard(name: string): void;
  remove(): void;
}

function openOwnDir(path: string): OwnDir {
  const made = lstatSync(path);
  // The same folder, still a folder: nothing has put a link or another folder in its place.
  const intact = (): boolean => {
    try {
      const now = lstatSync(path);
      return now.isDirectory() && now.dev === made.dev && now.ino === made.ino;
    } catch {
      return false;
    }
  };
  return {
    path,
    create(name, text) {
      if (!intact()) throw new Error(`Ralph's folder ${path} was replaced while the run went on`);
      const file = join(path, name);
      // O_EXCL refuses anything already standing at the name, a link included; O_NOFOLLOW too.
      const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return file;
    },
    discard(name) {
      if (!intact()) return;
      try {
        unlinkSync(join(path, name));
      } catch {
        // Already gone.
      }
    },
    remove() {
      if (intact()) rmSync(path, { recursive: true, force: true });
    },
  };
}

function createSession(manager: Manager, options: SandboxSessionOptions, ownDir: OwnDir): SandboxSession {
  const tally = new RefusalTally();
  let commands = 0;
  let closed = false;
  const contain = async (file: string, args: readonly string[], role: string, tmpDir?: string): Promise<ContainedCommand> => {
    commands += 1;
    const scriptName = `${commands}.sh`;
    // 128 random bits: the runtime keys refusals by it, and the id must not be guessable from inside.
    const commandId = randomBytes(16).toString('base64url');
    // The wrapper's exit code is not the command's (a contained command that is killed leaves
    // its wrapper exiting 0), so the command's own status comes back on file descriptor 3, a
    // pipe Ralph reads: no file to plant a link at, nothing to read but a few bytes. The
    // command itself runs with that descriptor closed.
    // The runtime points TMPDIR at a folder of its own under /tmp, writable only where /tmp is:
    // the agent gets the temp dir the policy lets it write instead, or the folder the command was
    // given inside it (a call's own temporary directory, removed after the call).
    const givenTmp = tmpDir !== undefined && isInsideDir(tmpDir, options.policy.tmpDir) ? tmpDir : options.policy.tmpDir;
    const localApi = options.policy.localApi ? 'NO_PROXY= no_proxy= ' : '';
    // The command line goes in a script: quoted twice more inside the wrapper's own command
    // line, a long prompt would pass the system's limit for one argument.
    const scriptFile = ownDir.create(scriptName, `exec env TMPDIR=${shellQuote(givenTmp)} ${localApi}${shellCommand([file, ...args])}\n`);
    const inner = `sh ${shellQuote(scriptFile)} 3>&-; printf '%s' "$?" >&3`;
    const wrapped = await manager.wrapWithSandboxArgv(inner, undefined, undefined, undefined, options.project, { commandId, commandText: role });
    const [wrapperFile, ...wrapperArgs] = wrapped.argv;
    if (wrapperFile === undefined) throw new Error('the sandbox runtime returned an empty command line');
    return {
      file: wrapperFile,
      args: wrapperArgs,
      reportPipe: true,
      settle: (outcome) => {
        // The placeholders the runtime created for this command go as soon as it ends.
        manager.cleanupAfterCommand();
        ownDir.discard(scriptName);
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
        return { ...settleExit({ ...outcome, stopped }), ...(refusals.length > 0 ? { refusals } : {}) };
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
      ownDir.remove();
    },
  };
}

/** The contained command's own exit, as its wrapper reported it; none when it was killed before it could. */
function settleExit(outcome: ProcessOutcome): ProcessOutcome {
  const { report, ...rest } = outcome;
  if (rest.end !== 'exited') return rest;
  const code = report !== undefined && /^\d{1,3}$/.test(report) ? Number(report) : undefined;
  if (code !== undefined) return { ...rest, exitCode: code };
  // No status: the command never got to its end (a kill inside the sandbox). A wrapper that
  // says 0 all the same must not pass for a success.
  return { ...rest, exitCode: undefined, signal: rest.signal ?? 'SIGKILL' };
}

/** A contained `true` must run: the first sign that the machine can run the sandbox at all. */
async function probeSandbox(session: SandboxSession, options: SandboxSessionOptions): Promise<void> {
  const contained = await session.contain('true', [], 'sandbox-check');
  const wrapper = await start(contained.file, contained.args, {
    cwd: options.project,
    env: options.env,
    role: 'sandbox-check',
    timeoutMs: 30_000,
    reportPipe: true,
  });
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
