// `ralph --circuit-status` reads the project's settings only for an open circuit's cooldown.
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph } from '../helpers/run-cli.js';

function circuit(state: 'OPEN' | 'CLOSED', openedMinutesAgo: number): string {
  const at = new Date(Date.now() - openedMinutesAgo * 60_000).toISOString();
  return JSON.stringify({
    state,
    last_change: at,
    ...(state === 'OPEN' ? { opened_at: at } : {}),
    consecutive_no_progress: state === 'OPEN' ? 3 : 0,
    consecutive_same_error: 0,
    consecutive_permission_denials: 0,
    consecutive_failures: 0,
    last_progress_loop: 0,
    total_opens: state === 'OPEN' ? 1 : 0,
    reason: state === 'OPEN' ? 'No progress in 3 consecutive loops' : '',
    current_loop: 3,
  });
}

describe('ralph --circuit-status', () => {
  it("counts an open circuit's cooldown down from CB_COOLDOWN_MINUTES in .ralphrc", async () => {
    const dir = ralphProject({ git: false, ralphrc: 'CB_COOLDOWN_MINUTES=45\n', files: { '.ralph/.circuit_breaker_state': circuit('OPEN', 10) } });
    const r = await ralph(['--circuit-status', '--json'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    const remaining = (JSON.parse(r.stdout) as { cooldown_remaining_minutes: number }).cooldown_remaining_minutes;
    expect(remaining).toBeGreaterThan(34);
    expect(remaining).toBeLessThanOrEqual(35);
    const text = await ralph(['--circuit-status'], dir, cleanEnv());
    expect(text.stdout).toContain('OPEN');
  });

  it('answers for a closed circuit even when .ralphrc has a bad line: a closed circuit has no cooldown to read', async () => {
    const dir = ralphProject({ git: false, ralphrc: 'CB_COOLDOWN_MINUTES=soon\n', files: { '.ralph/.circuit_breaker_state': circuit('CLOSED', 5) } });
    const r = await ralph(['--circuit-status', '--json'], dir, cleanEnv());
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'CLOSED', cooldown_remaining_minutes: null });
  });

  it('names the bad setting when an open circuit needs it', async () => {
    const dir = ralphProject({ git: false, ralphrc: 'CB_COOLDOWN_MINUTES=soon\n', files: { '.ralph/.circuit_breaker_state': circuit('OPEN', 5) } });
    const r = await ralph(['--circuit-status'], dir, cleanEnv());
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('CB_COOLDOWN_MINUTES');
  });
});
