// The placeholders of the sandbox runtime in a real repository: hidden from git while a run
// may create them, and what a killed run left removed without touching anything of the user's.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXCLUDE_BEGIN } from '../../../src/core/sandbox-placeholders.js';
import { createProcessRunner } from '../../../src/infra/process-runner.js';
import {
  findExcludeFile,
  guardPlaceholders,
  missingPlaceholderNames,
  releasePlaceholders,
  sweepPlaceholderLeftovers,
} from '../../../src/infra/sandbox/sandbox-placeholders.js';
import { git, gitRepo } from '../../helpers/git-repo.js';
import { tempDir } from '../../helpers/temp-dir.js';

const runner = createProcessRunner();

describe('sandbox placeholders', () => {
  it('lists only the names the project does not have; .claude stands for its guarded parts when it exists', () => {
    const dir = tempDir('ralph-ph-');
    writeFileSync(join(dir, '.bashrc'), 'mine\n');
    expect(missingPlaceholderNames(dir)).toContain('.claude');
    expect(missingPlaceholderNames(dir)).not.toContain('.bashrc');
    mkdirSync(join(dir, '.claude', 'commands'), { recursive: true });
    const missing = missingPlaceholderNames(dir);
    expect(missing).not.toContain('.claude');
    expect(missing).not.toContain('.claude/commands');
    expect(missing).toContain('.claude/agents');
  });

  it('hides the empty stand-ins from git while the run lasts, then removes them and the block', async () => {
    const dir = gitRepo();
    const exclude = await findExcludeFile(dir, runner);
    expect(exclude).toBe(join(dir, '.git', 'info', 'exclude'));
    const before = readFileSync(exclude as string, 'utf8');
    const guard = guardPlaceholders(dir, exclude);
    writeFileSync(join(dir, '.bashrc'), '');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.vscode'), '');
    expect(git(dir, 'status', '--porcelain')).toBe('');
    releasePlaceholders(dir, guard);
    for (const name of ['.bashrc', '.claude', '.vscode']) expect(existsSync(join(dir, name))).toBe(false);
    expect(readFileSync(exclude as string, 'utf8')).toBe(before);
  });

  it("after a kill, removes only what is still an empty stand-in; the user's files and links stay", async () => {
    const dir = gitRepo();
    const exclude = await findExcludeFile(dir, runner);
    guardPlaceholders(dir, exclude);
    writeFileSync(join(dir, '.bashrc'), '');
    writeFileSync(join(dir, '.zshrc'), 'written since\n');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'notes.md'), 'kept\n');
    symlinkSync('/etc/hostname', join(dir, '.profile'));
    expect(sweepPlaceholderLeftovers(dir, exclude)).toEqual(['.bashrc']);
    expect(existsSync(join(dir, '.bashrc'))).toBe(false);
    expect(readFileSync(join(dir, '.zshrc'), 'utf8')).toBe('written since\n');
    expect(readFileSync(join(dir, '.claude', 'notes.md'), 'utf8')).toBe('kept\n');
    expect(existsSync(join(dir, '.profile'))).toBe(true);
    expect(readFileSync(exclude as string, 'utf8')).not.toContain(EXCLUDE_BEGIN);
    // Without a block, nothing is a leftover.
    writeFileSync(join(dir, '.bashrc'), '');
    expect(sweepPlaceholderLeftovers(dir, exclude)).toEqual([]);
    expect(existsSync(join(dir, '.bashrc'))).toBe(true);
  });

  it('never removes or writes through a link the agent put in place of a folder', async () => {
    const dir = gitRepo();
    const outside = tempDir('ralph-ph-outside-');
    mkdirSync(join(outside, 'agents'));
    mkdirSync(join(dir, '.claude'));
    const exclude = await findExcludeFile(dir, runner);
    guardPlaceholders(dir, exclude);
    // The run replaced .claude with a link to a folder elsewhere, and .git/info with another.
    rmSync(join(dir, '.claude'), { recursive: true });
    symlinkSync(outside, join(dir, '.claude'));
    const block = readFileSync(exclude as string, 'utf8');
    expect(block).toContain('/.claude/agents');
    const infoElsewhere = tempDir('ralph-ph-info-');
    writeFileSync(join(infoElsewhere, 'exclude'), block);
    rmSync(join(dir, '.git', 'info'), { recursive: true });
    symlinkSync(infoElsewhere, join(dir, '.git', 'info'));
    expect(sweepPlaceholderLeftovers(dir, exclude)).toEqual([]);
    expect(existsSync(join(outside, 'agents'))).toBe(true);
    expect(readFileSync(join(infoElsewhere, 'exclude'), 'utf8')).toBe(block);
  });

  it('does nothing outside a git repository', async () => {
    const dir = tempDir('ralph-ph-nogit-');
    expect(await findExcludeFile(dir, runner)).toBeUndefined();
    expect(sweepPlaceholderLeftovers(dir, undefined)).toEqual([]);
  });
});
