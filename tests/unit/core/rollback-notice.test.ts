import { describe, expect, it } from 'vitest';
import { buildLoopContext } from '../../../src/core/loop-context.js';
import { formatRollbackNotice, type RollbackFacts } from '../../../src/core/rollback-notice.js';

const facts: RollbackFacts = {
  loop: 3,
  checkpointId: 'cp3-abc',
  cause: 'verify_failed',
  files: ['src/a.ts', 'src/b.ts'],
  attemptRef: 'refs/ralph/attempts/cp3-abc',
  headMoved: false,
};

describe('formatRollbackNotice', () => {
  it('says which checkpoint, why, and which files', () => {
    const text = formatRollbackNotice(facts);
    expect(text).toContain('## Your previous attempt was rolled back');
    expect(text).toContain('Because the verify command failed in loop #3, Ralph restored checkpoint cp3-abc');
    expect(text).toContain('2 files were reverted: src/a.ts, src/b.ts.');
    expect(text).toContain('refs/ralph/attempts/cp3-abc');
    expect(text).not.toContain('gone from the branch');
  });

  it('says the commits left the branch when HEAD moved', () => {
    expect(formatRollbackNotice({ ...facts, headMoved: true })).toContain(
      'The commits you made in that loop are gone from the branch (kept under refs/ralph/attempts/cp3-abc',
    );
  });

  it('names a failed agent call as the cause and lists at most ten files', () => {
    const files = Array.from({ length: 13 }, (_, i) => `f${i}.txt`);
    const text = formatRollbackNotice({ ...facts, cause: 'agent_failed', files });
    expect(text).toContain('Because the agent call failed');
    expect(text).toContain('13 files were reverted: f0.txt');
    expect(text).toContain('f9.txt and 3 more.');
    expect(text).not.toContain('f10.txt');
  });

  it('goes into the loop context before the verify feedback', () => {
    const context = buildLoopContext({ loop: 4, rollbackNotice: formatRollbackNotice(facts), verifyFeedback: '## Shell Verification FAILED (Attempt 1/5)' });
    expect(context).toContain('## Your previous attempt was rolled back');
    expect(context.indexOf('rolled back')).toBeLessThan(context.indexOf('Shell Verification FAILED'));
  });
});
