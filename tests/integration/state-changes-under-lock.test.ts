// A change to a loop's state from outside the loop (--reset-circuit,
// --gate-action with no loop running) is made under the project lock: a loop
// that took the lock after the "is a loop running?" check keeps its state, and
// the command says why it did nothing. Needs `npm run build`.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createGate } from '../../src/core/verify-gate.js';
import { ralphPaths } from '../../src/state/paths.js';
import { acquireProjectLock } from '../../src/state/project-lock.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { cleanEnv, ralph } from '../helpers/run-cli.js';

describe('state changes from outside the loop', () => {
  it('are refused while another process holds the project lock, leaving the files as they were', async () => {
    const dir = ralphProject();
    const paths = ralphPaths(dir);
    const circuit = `${JSON.stringify({ state: 'OPEN', last_change: '2026-01-15T12:00:00+00:00', consecutive_no_progress: 3, total_opens: 1, reason: 'No progress', current_loop: 4 })}\n`;
    const gate = `${JSON.stringify({ ...createGate('npm test', 3, 'g1'), attempt: 3, status: 'escalated' })}\n`;
    writeFileSync(paths.circuitState, circuit);
    writeFileSync(paths.gateState, gate);

    const lock = await acquireProjectLock(paths, () => undefined);
    // A loop that holds the lock but has not yet said who it is: the running-loop check sees none.
    rmSync(paths.pidFile, { force: true });
    try {
      for (const args of [['--reset-circuit'], ['--gate-action', 'skip']]) {
        const r = await ralph(args, dir, cleanEnv());
        expect(r.exitCode, args.join(' ')).toBe(1);
        expect(r.stderr).toContain('Another Ralph loop is already running in this project');
      }
      expect(readFileSync(paths.circuitState, 'utf8')).toBe(circuit);
      expect(readFileSync(paths.gateState, 'utf8')).toBe(gate);
    } finally {
      await lock.release();
    }

    const reset = await ralph(['--reset-circuit'], dir, cleanEnv());
    expect(reset.stdout).toContain('Circuit breaker reset to CLOSED state');
    expect(JSON.parse(readFileSync(paths.circuitState, 'utf8'))).toMatchObject({ state: 'CLOSED', reason: 'Manual reset via command line' });
    expect(JSON.parse(readFileSync(paths.circuitHistory, 'utf8'))).toMatchObject([{ from_state: 'OPEN', to_state: 'CLOSED', loop: 4 }]);
    const skip = await ralph(['--gate-action', 'skip'], dir, cleanEnv());
    expect(skip.stdout).toContain("The paused verify gate for 'npm test': the gate is skipped");
    expect(JSON.parse(readFileSync(paths.gateState, 'utf8'))).toMatchObject({ status: 'skipped', attempt: 3 });
  });
});
