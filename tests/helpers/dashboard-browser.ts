import { execa, type ResultPromise } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { ROOT, cleanEnv } from './run-cli.js';
import { tempDir } from './temp-dir.js';

/** Everything that would reach the network or slow a headless start is off. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Headless Chromium (`executablePath`, from findBrowser) with a fresh profile in a temp dir
 * (for beforeAll: `close` removes the profile).
 */
export async function launchBrowser(executablePath: string): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'ralph-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface RunningDashboard {
  /** The address printed: the token in its fragment. */
  url: string;
  /** The address without its token. */
  base: string;
  /** The token of this run. */
  token: string;
  process: ResultPromise;
  /** Ctrl+C, then the exit code. */
  stop(): Promise<number | undefined>;
}

/** Starts the built `ralph dashboard` (`--no-open` unless other `flags` are given) in `dir` and reads the address from its first line. */
export async function startDashboard(
  dir: string,
  env: Record<string, string> = cleanEnv(),
  flags: readonly string[] = ['--no-open'],
): Promise<RunningDashboard> {
  const child = execa(process.execPath, [join(ROOT, 'bin', 'ralph.js'), 'dashboard', ...flags], {
    cwd: dir,
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 120_000,
  });
  let stopped = false;
  const stop = async (): Promise<number | undefined> => {
    if (!stopped) child.kill('SIGINT');
    stopped = true;
    return (await child).exitCode;
  };
  onTestFinished(async () => {
    await stop();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline !== -1) resolve(text.slice(0, newline));
    });
    void child.then((r) => reject(new Error(`ralph dashboard ended (${String(r.exitCode)}): ${String(r.stderr)}`)));
  });
  const address = new URL(url);
  return { url, base: address.origin, token: new URLSearchParams(address.hash.slice(1)).get('token') ?? '', process: child, stop };
}

/**
 * An xdg-open on PATH that records its own command line as every user of the
 * machine can read it: /proc/<its pid>/cmdline (arguments separated by NUL).
 */
export function fakeOpener(): { env: Record<string, string>; log: string; bin: string } {
  const bin = tempDir('fake-xdg-open-');
  const log = join(bin, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\ncat /proc/$$/cmdline > "${log}.part" && mv "${log}.part" "${log}"\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  const env = cleanEnv();
  return { env: { ...env, PATH: `${bin}:${env['PATH']}` }, log, bin };
}

/** Where screenshots go (for beforeAll): RALPH_DASHBOARD_SHOTS to keep them, else a temp dir that `remove` deletes. */
export function screenshotDir(): { dir: string; remove: () => void } {
  const keep = process.env['RALPH_DASHBOARD_SHOTS'];
  if (keep !== undefined && keep !== '') {
    mkdirSync(keep, { recursive: true });
    return { dir: keep, remove: () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ralph-dashboard-shots-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Milliseconds from the start of navigation until the page showed its first data. */
export async function renderTime(page: Page): Promise<number> {
  await page.waitForSelector('body[data-loaded="true"]');
  return page.evaluate(() => performance.getEntriesByName('ralph-dashboard-rendered')[0]?.startTime ?? -1);
}
