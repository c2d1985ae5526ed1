import { describe, expect, it } from 'vitest';
import { describeRestoreMove, restoreRewindsBranch, type RestoreMoveFacts } from '../../../src/core/restore-move.js';

const base: RestoreMoveFacts = {
  checkpointId: 'cp2-abc',
  checkpointBranch: 'refs/heads/main',
  checkpointHead: 'a'.repeat(40),
  branchTip: 'b'.repeat(40),
  currentBranch: 'refs/heads/main',
  commitsLeft: [
    { sha: 'b'.repeat(40), subject: 'agent: second' },
    { sha: 'c'.repeat(40), subject: 'agent: first' },
  ],
};

describe('restoreRewindsBranch', () => {
  it.each([
    ['commits after the checkpoint on its branch', base, true],
    ['no newer commits', { ...base, commitsLeft: [] }, false],
    ['the checkpoint was on a detached HEAD', { ...base, checkpointBranch: null }, false],
    ['the branch no longer exists', { ...base, branchTip: null }, false],
  ])('%s → %s', (_name, facts, expected) => {
    expect(restoreRewindsBranch(facts)).toBe(expected);
  });
});

describe('describeRestoreMove', () => {
  it('names the branch, the commits it leaves and the command that keeps them', () => {
    const text = describeRestoreMove(base);
    expect(text).toContain(`moves branch 'main' back to ${'a'.repeat(12)}, leaving 2 commits`);
    expect(text).toContain(`${'b'.repeat(12)} agent: second`);
    expect(text).toContain('refs/ralph/attempts/');
    expect(text).toContain(`git branch main-before-restore ${'b'.repeat(12)}`);
    expect(text).not.toContain('HEAD also switches');
  });

  it('says when HEAD switches branches too, and lists at most eight commits', () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ sha: String(i).padStart(40, '0'), subject: `c${i}` }));
    const text = describeRestoreMove({ ...base, currentBranch: 'refs/heads/feature', commitsLeft: many });
    expect(text).toContain("HEAD also switches from 'feature' to 'main'");
    expect(text).toContain('… and 3 more');
    expect(text).not.toContain(' c8');
  });

  it('is empty when nothing is rewound', () => {
    expect(describeRestoreMove({ ...base, commitsLeft: [] })).toBe('');
  });
});
