import { mkdirSync, openSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLastLines } from '../../src/features/observe/monitor/read-log-tail.js';
import { readMonitorSnapshot } from '../../src/features/observe/loop-files.js';
import { tempDir } from '../helpers/temp-dir.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function project(files: Record<string, string> = {}): string {
  const dir = tempDir('ralph-monitor-');
  mkdirSync(join(dir, '.ralph', 'logs'), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, '.ralph', name), content);
  return dir;
}

describe('readMonitorSnapshot', () => {
  it('reports every file missing in an empty project without throwing', () => {
    const dir = tempDir('ralph-monitor-');
    const snap = readMonitorSnapshot(dir, NOW);
    expect(snap).toMatchObject({
      takenAt: '2026-03-01T12:00:00.000Z',
      status: { kind: 'missing' },
      progress: { kind: 'missing' },
      circuit: { kind: 'missing' },
      sessionId: null,
      logLines: [],
      loopAlive: null,
    });
  });

  it('reads status, progress, circuit, session and the log tail', () => {
    const dir = project({
      'status.json': JSON.stringify({ loop_count: 4, status: 'running', pid: process.pid, session_id: 'from-status' }),
      'progress.json': JSON.stringify({ status: 'executing', current_tool: 'Read: src/a.ts', tool_uses: 2 }),
      '.circuit_breaker_state': JSON.stringify({ state: 'CLOSED', reason: '' }),
      '.claude_session_id': JSON.stringify({ session_id: 'from-file', timestamp: '2026-03-01T11:00:00Z' }),
      'logs/ralph.log': '[2026-03-01 11:59:00] [INFO] one\n[2026-03-01 11:59:01] [INFO] two\n',
    });
    const snap = readMonitorSnapshot(dir, NOW);
    expect(snap.status.kind).toBe('ok');
    if (snap.status.kind === 'ok') expect(snap.status.doc.loop_count).toBe(4);
    expect(snap.progress).toMatchObject({ kind: 'ok', value: { current_tool: 'Read: src/a.ts', tool_uses: 2 } });
    expect(snap.circuit).toMatchObject({ kind: 'ok', value: { state: 'CLOSED' } });
    expect(snap.sessionId).toBe('from-file');
    expect(snap.logLines).toEqual(['[2026-03-01 11:59:00] [INFO] one', '[2026-03-01 11:59:01] [INFO] two']);
    expect(snap.loopAlive).toBe(true);
  });

  it('shows corrupt files as corrupt with the reason, never crashing', () => {
    const dir = project({ 'status.json': '{"loop_count": 3,', 'progress.json': '[]', '.circuit_breaker_state': '' });
    const snap = readMonitorSnapshot(dir, NOW);
    expect(snap.status).toMatchObject({ kind: 'corrupt', reason: expect.stringContaining('not valid JSON') });
    expect(snap.progress).toMatchObject({ kind: 'corrupt', reason: expect.stringContaining('object') });
    expect(snap.circuit).toMatchObject({ kind: 'corrupt', reason: 'the file is empty' });
  });

  it('treats an unreadable status path (a directory) as corrupt', () => {
    const dir = project();
    mkdirSync(join(dir, '.ralph', 'status.json'));
    expect(readMonitorSnapshot(dir, NOW).status).toMatchObject({ kind: 'corrupt', reason: 'it is a directory, not a regular file; remove it' });
  });

  it("falls back to status.json's session id and reads the legacy plain-text session file", () => {
    const dir = project({ 'status.json': JSON.stringify({ session_id: 'from-status' }) });
    expect(readMonitorSnapshot(dir, NOW).sessionId).toBe('from-status');
    writeFileSync(join(dir, '.ralph', '.claude_session_id'), 'legacy-id-42\n');
    expect(readMonitorSnapshot(dir, NOW).sessionId).toBe('legacy-id-42');
  });

  it('knows when the loop process is gone, and does not ask once the loop finished', () => {
    const dead = 2 ** 22 + 12345; // above the default pid_max, so never a live process
    const dir = project({ 'status.json': JSON.stringify({ status: 'running', pid: dead }) });
    expect(readMonitorSnapshot(dir, NOW).loopAlive).toBe(false);
    writeFileSync(join(dir, '.ralph', 'status.json'), JSON.stringify({ status: 'completed', exit_reason: 'plan_complete', exit_code: 0, pid: dead }));
    expect(readMonitorSnapshot(dir, NOW).loopAlive).toBeNull();
  });
});

describe('readLastLines', () => {
  it('returns the last lines of a 10 MB log', () => {
    const dir = tempDir('ralph-log-');
    const path = join(dir, 'ralph.log');
    const fd = openSync(path, 'w');
    const block = Array.from({ length: 1000 }, (_, i) => `[2026-03-01 11:00:00] [INFO] filler line ${i} ${'.'.repeat(60)}`).join('\n') + '\n';
    for (let i = 0; i < 110; i += 1) writeSync(fd, block);
    writeSync(fd, '[2026-03-01 11:59:59] [INFO] next to last\n[2026-03-01 12:00:00] [SUCCESS] the very last\n');
    closeSync(fd);
    expect(readLastLines(path, 2)).toEqual(['[2026-03-01 11:59:59] [INFO] next to last', '[2026-03-01 12:00:00] [SUCCESS] the very last']);
    expect(readLastLines(path, 8)).toHaveLength(8);
  });

  it('handles a file without a final newline, CRLF, and fewer lines than asked', () => {
    const path = join(tempDir('ralph-log-'), 'ralph.log');
    writeFileSync(path, 'a\r\nb\r\nc');
    expect(readLastLines(path, 10)).toEqual(['a', 'b', 'c']);
    expect(readLastLines(path, 0)).toEqual([]);
  });

  it('stays bounded when the last line alone is larger than the read budget', () => {
    const path = join(tempDir('ralph-log-'), 'ralph.log');
    writeFileSync(path, `first\n${'x'.repeat(200_000)}\n`);
    const lines = readLastLines(path, 3, 16 * 1024);
    expect(lines.join('').length).toBeLessThanOrEqual(16 * 1024);
  });

  it('returns nothing for a missing file', () => {
    expect(readLastLines(join(tempDir('ralph-log-'), 'nope.log'), 5)).toEqual([]);
  });

  it('keeps multi-byte characters whole across read chunks', () => {
    const path = join(tempDir('ralph-log-'), 'ralph.log');
    const line = `[2026-03-01 12:00:00] [INFO] ${'日本語'.repeat(2000)}`;
    writeFileSync(path, `${line}\n${line}\n`);
    expect(readLastLines(path, 1)).toEqual([line]);
  });
});
