import { createHash, randomBytes } from 'node:crypto';
import { constants, copyFileSync, lstatSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ExitCode, RalphError } from '../../errors.js';
import { packageRoot } from '../package-info.js';
import { run } from '../process.js';
import { isSandboxRuntimeModule, type SandboxRuntimeModule } from './sandbox-runtime-api.js';

/**
 * The sandbox runtime lives in a package folder of its own beside Ralph (`sandbox-runtime/`,
 * with its own lockfile) instead of among Ralph's dependencies. Only `--sandbox` needs it, and
 * its current releases declare Node.js 22.12 while Ralph runs on 20.19 and newer (its sandbox
 * tests run on Node 20): kept out of the install, it neither weighs on every install nor
 * makes npm warn about a Node.js version at each one. The first run with --sandbox installs
 * it from that lockfile, once, and says so.
 */
export const SANDBOX_RUNTIME_FOLDER = 'sandbox-runtime';
const PACKAGE = '@anthropic-ai/sandbox-runtime';
/** Written into node_modules once an install is complete: the hash of the lockfile it installed. */
const STAMP = '.ralph-installed-lock-sha256';

export interface SandboxRuntimeLoadOptions {
  /** The folder holding the runtime's package.json and lockfile (default: beside Ralph's own). */
  dir?: string;
  /** Told, before it starts, that the runtime is being installed. */
  say: (line: string) => void;
  /** Aborting stops an install under way. */
  signal?: AbortSignal;
  /** The environment npm runs with (default: Ralph's own). */
  env?: NodeJS.ProcessEnv;
}

export function sandboxRuntimeDir(): string {
  return join(packageRoot(), SANDBOX_RUNTIME_FOLDER);
}

/** Loads the sandbox runtime, installing it first when this Ralph has not yet. */
export async function loadSandboxRuntime(options: SandboxRuntimeLoadOptions): Promise<SandboxRuntimeModule> {
  const dir = options.dir ?? sandboxRuntimeDir();
  const lockHash = readLockHash(dir);
  if (installedHash(join(dir, 'node_modules')) !== lockHash) await install(dir, lockHash, options);
  return importRuntime(dir);
}

function incomplete(what: string): RalphError {
  return new RalphError(`Ralph's installation is incomplete: ${what}.`, ExitCode.RuntimeError, 'Reinstall Ralph (./install.sh in a checkout).');
}

/** The folder must be a real folder of Ralph's, not a link to somewhere else. */
function readLockHash(dir: string): string {
  let isDir = false;
  try {
    isDir = lstatSync(dir).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDir) throw incomplete(`${dir} (the sandbox runtime's package folder) is missing or not a folder`);
  try {
    return createHash('sha256')
      .update(readFileSync(join(dir, 'package-lock.json')))
      .digest('hex');
  } catch {
    throw incomplete(`${join(dir, 'package-lock.json')} cannot be read`);
  }
}

function installedHash(nodeModules: string): string | undefined {
  try {
    if (!lstatSync(nodeModules).isDirectory()) return undefined;
    return readFileSync(join(nodeModules, STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
}

function version(dir: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return pkg.dependencies?.[PACKAGE] ?? '';
  } catch {
    return '';
  }
}

/**
 * Installs into a staging folder and moves the finished node_modules into place, so a run that
 * is interrupted, or two runs starting at once (a queue's loops), never leave half an install
 * where the next run would load it.
 */
async function install(dir: string, lockHash: string, options: SandboxRuntimeLoadOptions): Promise<void> {
  options.say(
    `Installing the sandbox runtime (${PACKAGE} ${version(dir)}, about 20 MB) into ${dir}: once, on the first run with --sandbox (npm ci, needs the npm registry).`,
  );
  const staging = mkdtempSync(join(dir, '.installing-'));
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(dir, file), join(staging, file), constants.COPYFILE_EXCL);
    const npmArgs = ['ci', '--omit=dev', '--omit=optional', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'];
    // npm's own notices would only repeat, as a warning, the Node.js version the package declares.
    const outcome = await run('npm', [...npmArgs, '--loglevel=error', '--no-update-notifier'], {
      cwd: staging,
      env: options.env ?? process.env,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (outcome.end === 'interrupted')
      throw new RalphError('Interrupted while installing the sandbox runtime; nothing was kept. It installs on the next run with --sandbox.', ExitCode.Sigint);
    if (outcome.end !== 'exited' || outcome.exitCode !== 0) {
      const why =
        outcome.failure ??
        (outcome.stderr.toString('utf8').trim().split('\n').slice(-5).join(' ') || `npm ci ended with ${outcome.exitCode ?? outcome.signal}`);
      throw new RalphError(
        `--sandbox cannot start: installing the sandbox runtime failed: ${why}`,
        ExitCode.RuntimeError,
        `Ralph installs it once, with npm, from ${join(dir, 'package-lock.json')}: check that npm can reach its registry, then run again, or run without --sandbox.`,
      );
    }
    writeFileSync(join(staging, 'node_modules', STAMP), `${lockHash}\n`);
    putInPlace(join(staging, 'node_modules'), join(dir, 'node_modules'), lockHash);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function putInPlace(fresh: string, target: string, lockHash: string): void {
  // Another run may have finished the same install meanwhile: then its copy stays.
  if (installedHash(target) === lockHash) return;
  const old = `${target}.old-${randomBytes(6).toString('hex')}`;
  let moved = false;
  try {
    renameSync(target, old);
    moved = true;
  } catch {
    // Nothing was there (or it went meanwhile).
  }
  try {
    renameSync(fresh, target);
  } catch (error) {
    if (installedHash(target) !== lockHash) throw error;
  } finally {
    if (moved) rmSync(old, { recursive: true, force: true });
  }
}

async function importRuntime(dir: string): Promise<SandboxRuntimeModule> {
  const packageDir = join(dir, 'node_modules', ...PACKAGE.split('/'));
  let main = 'index.js';
  try {
    const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { main?: unknown };
    if (typeof pkg.main === 'string') main = pkg.main;
  } catch {
    throw incomplete(`${packageDir} has no readable package.json`);
  }
  const loaded: unknown = await import(pathToFileURL(join(packageDir, main)).href);
  if (!isSandboxRuntimeModule(loaded)) throw incomplete(`${packageDir} does not provide the sandbox runtime's SandboxManager`);
  return loaded;
}
