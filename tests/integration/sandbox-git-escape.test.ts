// `ralph --sandbox` against the real sandbox runtime and a fake `claude` that tries to get out
// through Ralph's own git calls: a git dir of its own inside the project, with a filter in its
// configuration, reached through a planted .git/commondir, and every file sent through that
// filter by .gitattributes. Ralph's next git call would run the filter outside the sandbox.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph } from '../helpers/run-cli.js';
import { bwrapUnavailable, sandboxWorld } from '../helpers/sandbox-world.js';

const unavailable = bwrapUnavailable();

describe.skipIf(unavailable !== undefined)(`ralph --sandbox and git${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('stops with what changed when the agent points .git at a configuration of its own; the filter never runs', async () => {
    const world = sandboxWorld();
    const dir = ralphProject({ files: { 'src/a.txt': 'one\n' } });
    const escaped = join(world.home, 'escaped-through-git');
    const shell = [
      'mkdir -p build && cp -r .git build/gitdir',
      `git config --file build/gitdir/config filter.evil.clean "touch ${escaped}; cat"`,
      'git config --file build/gitdir/config filter.evil.required true',
      "printf '* filter=evil\\n' > .gitattributes",
      'printf \'%s\\n\' "$PWD/build/gitdir" > .git/commondir && echo planted > planted.txt',
      // Same size, newer time: git must read the file, through the filter, to tell.
      'sleep 1; git ls-files -z | xargs -0 touch',
    ].join('; ');
    const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell }], { env: {} });
    const env = world.env({ FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
    const r = await ralph(['--sandbox', '--sandbox-allow-write', fake.stateDir, '--max-loops', '2', '--pause', '0'], dir, env, 90_000);
    // The agent could plant it (a name that does not exist cannot be made read-only without
    // breaking git), and Ralph refuses the repository before any git call reads it.
    expect(existsSync(join(dir, 'planted.txt'))).toBe(true);
    expect(existsSync(escaped)).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('changed while the agent ran (its .git/commondir');
    expect(r.stderr).toContain('put the repository back as it was');
  });
});
