// What a user sees of the agent's own settings: `ralph --config` shows the selected backend's
// keys and where each came from, and --model lands on that backend's key.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { FAKE_BIN, cleanEnv, ralph } from '../helpers/run-cli.js';

describe('ralph --config and the agent settings', () => {
  it('shows the selected backend, its settings with their sources and the program its command runs', async () => {
    const dir = ralphProject({ ralphrc: 'CLAUDE_EXTRA_ARGS=--verbose\n' });
    const r = await ralph(['--config', '--backend', 'claude', '--model', 'opus'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe('Backend: claude (Claude Code)  (flag: --backend)');
    expect(lines).toContain(`  CLAUDE_CODE_CMD     claude  → ${join(FAKE_BIN, 'claude')}  (default)`);
    expect(lines).toContain('  CLAUDE_MODEL        opus  (flag: --model)');
    expect(lines).toContain('  CLAUDE_EXTRA_ARGS   --verbose  (ralphrc: .ralphrc:1)');
  });

  it('says once that a backend without the setting ignores --effort', async () => {
    const dir = ralphProject();
    const r = await ralph(['--config', '--backend', 'mock', '--effort', 'high'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('--effort'))).toEqual(['Warning: the mock backend has no effort setting: --effort high is ignored']);
    expect(r.stdout).toContain('Backend: mock (mock agent)  (flag: --backend)');
    // Another agent's settings are no part of this run.
    expect(r.stdout).not.toContain('CLAUDE_CODE_CMD');
    expect(r.stdout).toContain('  MAX_CALLS_PER_HOUR ');
  });
});
