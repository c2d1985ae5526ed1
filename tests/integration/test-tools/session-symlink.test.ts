// test_inspect / test_assert / test_cleanup against a session recording
// reached through symlinks planted in a real workspace (made by test_setup
// with real git), pointing at a file outside it. Run in-process.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultDeps } from '../../../src/cli/deps.js';
import { resetLoopState } from '../../../src/features/agent-tools/test/run-state.js';
import { testAssert } from '../../../src/features/agent-tools/test/test-assert.js';
import { testCleanup } from '../../../src/features/agent-tools/test/test-cleanup.js';
import { testInspect } from '../../../src/features/agent-tools/test/test-inspect.js';
import { testSetup } from '../../../src/features/agent-tools/test/test-setup.js';
import type { ToolContext } from '../../../src/features/agent-tools/test/tool-home.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { toolsHome, writeSession } from '../../helpers/test-tools.js';

const SECRET = 'SECRET-LINE-outside-the-workspace password=hunter2';

function context(home: string): ToolContext {
  return { env: { RALPH_TEST_TOOLS_HOME: home }, cwd: home, now: () => Date.now(), runner: createDefaultDeps().runner, warn: () => undefined };
}

/** An outside folder holding a session.jsonl: one valid record, then a line of someone's file. */
function outsideSession(): string {
  const outside = tempDir('ralph-outside-');
  writeFileSync(join(outside, 'session.jsonl'), `${JSON.stringify({ ts: 1, event: 'loop.start', data: {} })}\n${SECRET}\n`);
  return outside;
}

async function messageOf(call: () => unknown): Promise<string> {
  try {
    await call();
  } catch (error) {
    return JSON.stringify({ message: (error as Error).message, ...((error as { details?: unknown }).details ?? {}) });
  }
  throw new Error('expected the call to be refused');
}

const plants: Array<[string, (workspace: string, outside: string) => void]> = [
  ['the session file is a symlink', (w, o) => symlinkSync(join(o, 'session.jsonl'), join(w, '.ralph', 'logs', 'session.jsonl'))],
  [
    '.ralph/logs is a symlink',
    (w, o) => {
      rmSync(join(w, '.ralph', 'logs'), { recursive: true, force: true });
      symlinkSync(o, join(w, '.ralph', 'logs'));
    },
  ],
  [
    '.ralph is a symlink',
    (w, o) => {
      mkdirSync(join(o, 'logs'));
      renameSync(join(o, 'session.jsonl'), join(o, 'logs', 'session.jsonl'));
      rmSync(join(w, '.ralph'), { recursive: true, force: true });
      symlinkSync(o, join(w, '.ralph'));
    },
  ],
];

describe('the session recording is only read from inside the workspace', () => {
  it.each(plants)('refuses when %s, without echoing the outside file', async (_name, plant) => {
    const home = toolsHome();
    const ctx = context(home);
    const { workspace_path: workspace } = await testSetup({ workspace_id: 'w' }, ctx);
    rmSync(join(workspace, '.ralph', 'logs'), { recursive: true, force: true });
    mkdirSync(join(workspace, '.ralph', 'logs'), { recursive: true });
    const outside = outsideSession();
    plant(workspace, outside);
    for (const call of [
      () => testInspect({ workspace_id: 'w' }, ctx),
      () => testAssert({ workspace_id: 'w', assertions: [{ type: 'event_occurred', topic: 'loop.start' }] }, ctx),
    ]) {
      const message = await messageOf(call);
      expect(message).toContain('is a symbolic link');
      expect(message).not.toContain('SECRET');
      expect(message).not.toContain('hunter2');
    }
    // test_cleanup with preserve_session deletes the link, never what it points at.
    await testCleanup({ workspace_id: 'w', preserve_session: true }, ctx);
    expect(
      readFileSync(existsSync(join(outside, 'session.jsonl')) ? join(outside, 'session.jsonl') : join(outside, 'logs', 'session.jsonl'), 'utf8'),
    ).toContain(SECRET);
  });

  it('a damaged line inside the workspace is named by number, its text never quoted', async () => {
    const home = toolsHome();
    const ctx = context(home);
    const { workspace_path: workspace } = await testSetup({ workspace_id: 'd' }, ctx);
    const path = writeSession(workspace, ['loop.start', 'loop.exit']);
    writeFileSync(path, `${readFileSync(path, 'utf8')}${SECRET}\n`);
    const message = await messageOf(() => testInspect({ workspace_id: 'd' }, ctx));
    expect(message).toContain('damaged at line 3: line 3: not valid JSON');
    expect(message).not.toContain('SECRET');
  });

  it('resetting an earlier run never deletes through a symlinked .ralph or .ralph/logs', () => {
    const workspace = tempDir('ralph-ws-');
    const outsideLogs = outsideSession();
    writeFileSync(join(outsideLogs, 'ralph.log'), 'someone else’s log\n');
    mkdirSync(join(workspace, '.ralph'));
    symlinkSync(outsideLogs, join(workspace, '.ralph', 'logs'));
    writeFileSync(join(workspace, '.ralph', 'status.json'), '{}');
    expect(resetLoopState(workspace)).toContain('reset');
    expect(existsSync(join(workspace, '.ralph', 'status.json'))).toBe(false);
    expect(readFileSync(join(outsideLogs, 'ralph.log'), 'utf8')).toContain('someone');
    expect(readFileSync(join(outsideLogs, 'session.jsonl'), 'utf8')).toContain(SECRET);

    const other = tempDir('ralph-ws-');
    const outsideState = tempDir('ralph-outside-');
    writeFileSync(join(outsideState, 'status.json'), 'keep');
    mkdirSync(join(outsideState, 'logs'));
    writeFileSync(join(outsideState, 'logs', 'ralph.log'), 'keep');
    symlinkSync(outsideState, join(other, '.ralph'));
    resetLoopState(other);
    expect(readFileSync(join(outsideState, 'status.json'), 'utf8')).toBe('keep');
    expect(readFileSync(join(outsideState, 'logs', 'ralph.log'), 'utf8')).toBe('keep');
  });
});
