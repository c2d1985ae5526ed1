import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { ExitCode, NotAProjectError, RalphError, UsageError } from '../../../errors.js';
import type { ProcessRunner } from '../../../ports.js';
import { ralphPaths } from '../../../state/paths.js';
import { runControl } from './dashboard-controls.js';
import { startDashboardServer, type DashboardServer } from './dashboard-server.js';
import { OpeningCodes } from './opening-codes.js';
import { listLoops, readDashboardState } from './read-dashboard.js';
import { isLoopback } from './request-guard.js';
import { loadStaticAssets } from './static-assets.js';

export interface DashboardOptions {
  projectDir: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** Open the page in the browser (when there is a display). */
  open: boolean;
  /** Listen on a host that is not loopback. */
  allowRemote: boolean;
}

export interface DashboardDeps {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Aborted to stop the server; its reason, when a number, is the exit code (130 for Ctrl+C). */
  signal: AbortSignal;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  runner: ProcessRunner;
  now: () => number;
  /** The built page (index.html, app.js, app.css). */
  staticDir: string;
  /** How often open pages are brought up to date; at least a second. */
  intervalMs?: number;
}

/** How long the program that opens the browser may take before it is stopped. */
const OPEN_TIMEOUT_MS = 10_000;

/** The program that opens an address in the person's browser, when there is a screen to show it on. */
export function browserOpener(platform: NodeJS.Platform, env: Record<string, string | undefined>): string | undefined {
  if (platform === 'darwin') return 'open';
  if (platform === 'win32') return undefined;
  const display = (env['DISPLAY'] ?? '') !== '' || (env['WAYLAND_DISPLAY'] ?? '') !== '';
  return display ? 'xdg-open' : undefined;
}

function checkHost(options: DashboardOptions, stderr: DashboardDeps['stderr']): void {
  if (isLoopback(options.host)) return;
  if (!options.allowRemote) {
    throw new UsageError(
      `--host ${options.host} is not a loopback address: the dashboard's buttons stop loops and answer gates, so it only listens on this machine by default.`,
      `Add --allow-remote to listen on ${options.host} anyway (anyone who gets the printed address can use it), or leave --host out.`,
    );
  }
  stderr.write(
    `Warning: listening on ${options.host}: anyone who can reach it and has the printed address (with its token) can stop loops and answer gates.\n`,
  );
}

async function openBrowser(url: string, deps: DashboardDeps, cwd: string): Promise<void> {
  const opener = browserOpener(deps.platform, deps.env);
  if (opener === undefined) {
    deps.stderr.write('No display to open a browser on: open the address above yourself.\n');
    return;
  }
  // Waited for, with a time limit: the opener hands the address to the browser and ends; it is never left behind.
  const result = await deps.runner.run(opener, [url], { cwd, timeoutMs: OPEN_TIMEOUT_MS });
  if (result.exitCode !== 0) {
    const why = result.spawnError ?? (result.timedOut ? 'it took too long' : `exit code ${String(result.exitCode)}`);
    deps.stderr.write(`Could not open a browser with ${opener} (${why}): open the address above yourself.\n`);
  }
}

/**
 * `ralph dashboard`: serves the page until the signal aborts, then closes the
 * server. The first line on stdout is the address to open (with its token,
 * for this user's eyes only); the browser opener gets an address with a
 * one-time code instead, because every user can read its command line.
 */
export async function runDashboard(options: DashboardOptions, deps: DashboardDeps): Promise<number> {
  const paths = ralphPaths(options.projectDir);
  if (!existsSync(paths.dir))
    throw new NotAProjectError(
      `${paths.project} is not a Ralph project (no .ralph/ directory).`,
      'Run ralph-enable here first, or run ralph dashboard in the project.',
    );
  checkHost(options, deps.stderr);
  const assets = loadStaticAssets(deps.staticDir);
  const warn = (message: string): void => {
    deps.stderr.write(`Warning: ${message}\n`);
  };
  let server: DashboardServer;
  try {
    server = await startDashboardServer({
      host: options.host,
      port: options.port,
      token: randomBytes(24).toString('base64url'),
      openingCodes: new OpeningCodes(deps.now, () => randomBytes(24).toString('base64url')),
      assets,
      read: () => readDashboardState(paths.project, deps.now()),
      control: async (loopId, request) => {
        const loop = listLoops(paths.project).loops.find((l) => l.id === loopId);
        if (loop === undefined) return { status: 404, ok: false, message: `no loop '${loopId}' in this project (or its queue)` };
        return runControl(loop, request, deps.now, warn);
      },
      intervalMs: deps.intervalMs ?? 1000,
      onError: (error) => warn(`dashboard: ${error instanceof Error ? error.message : String(error)}`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new RalphError(
        `Port ${options.port} on ${options.host} is already in use.`,
        ExitCode.RuntimeError,
        'Choose another with --port N, or leave --port out for any free port.',
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`Cannot listen on ${options.host}: it is not an address of this machine.`, 'Leave --host out to listen on 127.0.0.1.');
    throw error;
  }
  try {
    deps.stdout.write(`${server.url}\n`);
    deps.stderr.write(`Dashboard of ${paths.project}; Ctrl+C stops it.\n`);
    if (options.open) await openBrowser(server.openingUrl(), deps, paths.project);
    if (!deps.signal.aborted) await new Promise<void>((resolve) => deps.signal.addEventListener('abort', () => resolve(), { once: true }));
  } finally {
    await server.close();
  }
  return typeof deps.signal.reason === 'number' ? deps.signal.reason : ExitCode.Sigint;
}
