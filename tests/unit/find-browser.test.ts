// The browser the dashboard's tests drive is found on this machine (never one fixed path), or the
// tests are told what to install.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBrowser } from '../helpers/find-browser.js';
import { tempDir } from '../helpers/temp-dir.js';

function fakeBrowser(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\n', { mode: 0o755 });
  return path;
}

describe('findBrowser', () => {
  it('takes CHROMIUM_PATH, then CHROME_PATH, when set', () => {
    const dir = tempDir('ralph-browser-');
    const chromium = fakeBrowser(dir, 'my-chromium');
    const chrome = fakeBrowser(dir, 'my-chrome');
    expect(findBrowser({ CHROMIUM_PATH: chromium, CHROME_PATH: chrome, PATH: '' })).toEqual({ path: chromium });
    expect(findBrowser({ CHROME_PATH: chrome, PATH: '' })).toEqual({ path: chrome });
  });

  it('says so when the path it was given does not exist, instead of looking elsewhere', () => {
    expect(findBrowser({ CHROMIUM_PATH: '/nonexistent/chromium', PATH: '' })).toEqual({
      missing: 'CHROMIUM_PATH is /nonexistent/chromium, which does not exist',
    });
  });

  it('finds a browser on PATH under any of its usual names', () => {
    const bin = join(tempDir('ralph-browser-'), 'bin');
    const chrome = fakeBrowser(bin, 'google-chrome-stable');
    expect(findBrowser({ PATH: `/nonexistent:${bin}` })).toEqual({ path: chrome });
  });

  it('without one, names what to install (or finds playwright-core’s own download)', () => {
    const found = findBrowser({ PATH: tempDir('ralph-browser-') });
    if ('path' in found) expect(existsSync(found.path)).toBe(true);
    else expect(found.missing).toContain('set CHROMIUM_PATH');
  });
});
