import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIVE_LOG_MAX_BYTES, LoopStore } from '../../../src/state/loop-store.js';
import { ralphPaths } from '../../../src/state/paths.js';
import { addSecretValues } from '../../../src/state/redaction.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('live.log', () => {
  it('never grows past its size: it starts over with a notice and keeps the latest output', () => {
    expect(LIVE_LOG_MAX_BYTES).toBe(10 * 1024 * 1024);
    const paths = ralphPaths(tempDir());
    mkdirSync(paths.logsDir, { recursive: true });
    const store = new LoopStore(paths, () => {}, 1000);
    store.resetLiveLog('=== Loop #1 ===');
    for (let i = 0; i < 500; i += 1) {
      store.appendLiveLog(`event ${String(i).padStart(3, '0')}\n`);
      expect(statSync(paths.liveLog).size).toBeLessThanOrEqual(1000 + 200);
    }
    const text = readFileSync(paths.liveLog, 'utf8');
    expect(text).toContain('earlier output of this loop cut');
    expect(text.endsWith('event 499\n')).toBe(true);
  });

  it('redacts a secret that arrives split across two pieces of output', () => {
    const secret = 'ghp_live0log0split0secret0value';
    addSecretValues([{ name: 'LIVE_LOG_TEST_TOKEN', value: secret }]);
    const paths = ralphPaths(tempDir());
    mkdirSync(paths.logsDir, { recursive: true });
    const store = new LoopStore(paths, () => {});
    store.resetLiveLog('=== Loop #1 ===');
    store.appendLiveLog(`token: ${secret.slice(0, 12)}`);
    store.appendLiveLog(`${secret.slice(12)} done\n`);
    store.endLiveLog();
    const text = readFileSync(paths.liveLog, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:LIVE_LOG_TEST_TOKEN] done');
  });
});
