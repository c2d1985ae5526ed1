import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium } from 'playwright-core';

/** Names a Chromium-based browser goes by on PATH (Debian, Ubuntu, Fedora, Arch, Google's own packages). */
const COMMAND_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/** Where one is installed outside PATH (snap, macOS). */
const COMMON_LOCATIONS = [
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export type BrowserLookup = { path: string } | { missing: string };

/**
 * The Chromium-based browser the dashboard's tests drive: $CHROMIUM_PATH or $CHROME_PATH when
 * set, else the first one on PATH or in a common location, else the one playwright-core
 * downloaded (`npx playwright-core install chromium`). The tests never download one themselves;
 * when there is none, `missing` says what to install.
 */
export function findBrowser(env: NodeJS.ProcessEnv = process.env): BrowserLookup {
  for (const name of ['CHROMIUM_PATH', 'CHROME_PATH']) {
    const given = env[name];
    if (given === undefined || given === '') continue;
    return existsSync(given) ? { path: given } : { missing: `${name} is ${given}, which does not exist` };
  }
  const onPath = (env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
  const candidates = [...onPath.flatMap((dir) => COMMAND_NAMES.map((name) => join(dir, name))), ...COMMON_LOCATIONS, playwrightsOwn()];
  const found = candidates.find((path) => path !== undefined && existsSync(path));
  if (found !== undefined) return { path: found };
  return {
    missing:
      'no Chromium or Chrome found: install one (Debian/Ubuntu: apt-get install chromium; macOS: brew install --cask chromium) or set CHROMIUM_PATH to its executable',
  };
}

function playwrightsOwn(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}
