// What git reads as configuration, and where it finds it, against the real sandbox runtime:
// a contained command may commit, but not rewrite the configuration files, hooks or info/ of
// the project's repository, its submodules' or its linked worktrees', nor move .git aside.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { start } from '../../../src/infra/process.js';
import { openSandboxSession, type SandboxSession } from '../../../src/infra/sandbox/sandbox-session.js';
import { git, gitRepo } from '../../helpers/git-repo.js';
import { bwrapUnavailable } from '../../helpers/sandbox-world.js';
import { tempDir } from '../../helpers/temp-dir.js';

const unavailable = bwrapUnavailable();
let session: SandboxSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** A repository with a submodule's git dir, a worktree configuration and a linked worktree, all in one writable folder. */
function world(): { base: string; main: string; linked: string } {
  const base = tempDir('ralph-sandbox-git-');
  const main = join(base, 'main');
  mkdirSync(main);
  gitRepo({ 'a.txt': 'one\n' }, main);
  writeFileSync(join(main, '.git', 'config.worktree'), '[core]\n');
  git(main, 'init', '-q', '--bare', join(main, '.git', 'modules', 'sub'));
  const linked = join(base, 'linked');
  git(main, 'worktree', 'add', '-q', linked);
  return { base, main, linked };
}

async function contained(base: string, project: string, script: string): Promise<string> {
  session = await openSandboxSession({
    project,
    policy: { tmpDir: base, agentDirs: [], allowWrite: [base], denyRead: [], denyWrite: [], allowedDomains: [], localApi: false },
    env: process.env,
    say: () => undefined,
  });
  const outcome = await start('sh', ['-c', `t() { if (eval "$2") 2>/dev/null; then echo "wrote $1"; else echo "refused $1"; fi; }\n${script}`], {
    cwd: project,
    env: process.env,
    contain: session,
  });
  expect(outcome).toMatchObject({ end: 'exited', exitCode: 0 });
  return outcome.stdoutTail;
}

describe.skipIf(unavailable !== undefined)(`git's configuration under --sandbox${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it("keeps the repository's configuration, hooks, info/, submodules' and worktrees' files read-only, and .git in place", async () => {
    const { base, main } = world();
    const said = await contained(
      base,
      main,
      [
        `t config 'echo "[x]" >> .git/config'`,
        `t config.worktree 'echo "[filter \\"evil\\"]" >> .git/config.worktree'`,
        `t info 'echo "* filter=evil" > .git/info/attributes'`,
        `t hooks 'echo x > .git/hooks/pre-commit'`,
        `t submodule-config 'echo "[x]" >> .git/modules/sub/config'`,
        `t submodule-hooks 'echo x > .git/modules/sub/hooks/post-checkout'`,
        `t worktree-commondir 'echo /tmp > .git/worktrees/linked/commondir'`,
        `t worktree-gitdir 'echo /tmp > .git/worktrees/linked/gitdir'`,
        `t move-git 'mv .git .git-old'`,
        `echo two > a.txt && git add -A && git commit -qm inside && echo committed`,
      ].join('\n'),
    );
    for (const what of [
      'config',
      'config.worktree',
      'info',
      'hooks',
      'submodule-config',
      'submodule-hooks',
      'worktree-commondir',
      'worktree-gitdir',
      'move-git',
    ]) {
      expect(said).toContain(`refused ${what}\n`);
    }
    expect(said).not.toContain('wrote');
    // Git itself still works inside: the agent may commit.
    expect(said).toContain('committed');
    expect(readFileSync(join(main, '.git', 'config.worktree'), 'utf8')).toBe('[core]\n');
    expect(git(main, 'log', '-1', '--format=%s')).toBe('inside\n');
  });

  it("in a linked worktree: its .git file and its git dir's files, and the main repository's configuration", async () => {
    const { base, main, linked } = world();
    const gitDir = join(main, '.git', 'worktrees', 'linked');
    const said = await contained(
      base,
      linked,
      [
        `t dot-git 'echo "gitdir: /tmp" > .git'`,
        `t commondir 'echo /tmp > ${gitDir}/commondir'`,
        `t gitdir 'echo /tmp > ${gitDir}/gitdir'`,
        `t main-config 'echo "[x]" >> ${main}/.git/config'`,
        `t main-hooks 'echo x > ${main}/.git/hooks/pre-commit'`,
        `echo two > a.txt && git add -A && git commit -qm inside && echo committed`,
      ].join('\n'),
    );
    for (const what of ['dot-git', 'commondir', 'gitdir', 'main-config', 'main-hooks']) expect(said).toContain(`refused ${what}\n`);
    expect(said).toContain('committed');
    expect(readFileSync(join(linked, '.git'), 'utf8')).toContain(gitDir);
  });
});
