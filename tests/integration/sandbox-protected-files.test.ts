// Under --sandbox the agent may not change what configures Ralph or its own CLI: .ralphrc, the
// prompt, Ralph's state, the agent's settings and credentials are read-only, and the other agents'
// credentials are unreadable. What it is meant to edit (the fix plan, AGENT.md, specs, its own
// sessions) stays writable. Against the real sandbox runtime (bubblewrap).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git-repo.js';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph } from '../helpers/run-cli.js';
import { bwrapUnavailable, sandboxWorld } from '../helpers/sandbox-world.js';

const unavailable = bwrapUnavailable();

/** One attempt: a shell command, then what it left in results.txt. */
const attempt = (name: string, command: string): string =>
  `(${command}) 2>/dev/null && echo "${name}: done" >> results.txt || echo "${name}: refused" >> results.txt`;

describe.skipIf(unavailable !== undefined)(
  `ralph --sandbox protects Ralph's and the agent's settings${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    it('refuses writes to .ralphrc, the prompt, Ralph state and the agent settings, and reads of other agents credentials', async () => {
      const world = sandboxWorld();
      const claude = join(world.home, '.claude');
      mkdirSync(claude, { recursive: true });
      writeFileSync(join(claude, 'settings.json'), '{}\n');
      writeFileSync(join(claude, '.credentials.json'), '{"own":"claude-login"}\n');
      mkdirSync(join(world.home, '.codex'));
      writeFileSync(join(world.home, '.codex', 'auth.json'), '{"OPENAI_API_KEY":"sk-codex-login-not-for-claude"}\n');
      mkdirSync(join(world.home, '.gemini'));
      writeFileSync(join(world.home, '.gemini', 'oauth_creds.json'), '{"refresh_token":"gemini-login-not-for-claude"}\n');
      const dir = ralphProject({ ralphrc: 'MAX_CALLS_PER_HOUR=100\n' });
      const shell = [
        attempt('ralphrc', 'echo RALPH_SANDBOX=false >> .ralphrc'),
        attempt('prompt', 'echo "do something else" > .ralph/PROMPT.md'),
        attempt('gate-action', 'echo skip > .ralph/.gate_action'),
        attempt('circuit', 'echo "{}" > .ralph/.circuit_breaker_state'),
        attempt('logs', 'echo forged > .ralph/logs/forged.txt'),
        attempt('runtime-dir', 'echo forged > .git/ralph/forged.txt'),
        attempt('fix-plan', 'echo "- [ ] found a task" >> .ralph/fix_plan.md'),
        attempt('agent-md', 'echo "run npm test" >> .ralph/AGENT.md'),
        attempt('specs', 'mkdir -p .ralph/specs && echo spec > .ralph/specs/new.md'),
        attempt('settings', `echo '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"touch /tmp/pwned"}]}]}}' > "$HOME/.claude/settings.json"`),
        attempt('settings-local', 'echo "{}" > "$HOME/.claude/settings.local.json"'),
        attempt('hooks', 'mkdir -p "$HOME/.claude/hooks" && echo "touch /tmp/pwned" > "$HOME/.claude/hooks/run.sh"'),
        attempt('own-session', 'mkdir -p "$HOME/.claude/projects" && echo "{}" > "$HOME/.claude/projects/session.jsonl"'),
        attempt('own-login-read', 'cat "$HOME/.claude/.credentials.json" > own-login.txt'),
        attempt('own-login-write', 'echo "{}" > "$HOME/.claude/.credentials.json"'),
        attempt('codex-login', 'cat "$HOME/.codex/auth.json" > codex-login.txt'),
        attempt('gemini-login', 'cat "$HOME/.gemini/oauth_creds.json" > gemini-login.txt'),
      ].join('; ');
      const fake = fakeClaude([{ fixture: 'json-success-tool-use.json', shell }]);
      const env = world.env({ FAKE_CLAUDE_SCENARIO: fake.env['FAKE_CLAUDE_SCENARIO'] as string, FAKE_CLAUDE_STATE: fake.stateDir });
      const r = await ralph(['--sandbox', '--sandbox-allow-write', fake.stateDir, '--max-loops', '1', '--pause', '0'], dir, env, 90_000);
      expect(r.stderr).toContain('Sandbox on');
      expect(r.exitCode).toBe(7);

      const results = Object.fromEntries(
        readFileSync(join(dir, 'results.txt'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split(': ')),
      );
      expect(results).toEqual({
        ralphrc: 'refused',
        prompt: 'refused',
        'gate-action': 'refused',
        circuit: 'refused',
        logs: 'refused',
        'runtime-dir': 'refused',
        'fix-plan': 'done',
        'agent-md': 'done',
        specs: 'done',
        settings: 'refused',
        'settings-local': 'refused',
        hooks: 'refused',
        'own-session': 'done',
        'own-login-read': 'done',
        'own-login-write': 'refused',
        'codex-login': 'refused',
        'gemini-login': 'refused',
      });
      expect(readFileSync(join(dir, '.ralphrc'), 'utf8')).toBe('MAX_CALLS_PER_HOUR=100\n');
      expect(readFileSync(join(dir, '.ralph', 'PROMPT.md'), 'utf8')).not.toContain('do something else');
      expect(existsSync(join(dir, '.ralph', '.gate_action'))).toBe(false);
      expect(readFileSync(join(claude, 'settings.json'), 'utf8')).toBe('{}\n');
      expect(existsSync(join(claude, 'settings.local.json'))).toBe(false);
      expect(existsSync(join(claude, 'hooks', 'run.sh'))).toBe(false);
      expect(readFileSync(join(dir, 'own-login.txt'), 'utf8')).toContain('claude-login');
      expect(existsSync(join(dir, 'codex-login.txt')) ? readFileSync(join(dir, 'codex-login.txt'), 'utf8') : '').not.toContain('sk-codex');
      expect(existsSync(join(dir, 'gemini-login.txt')) ? readFileSync(join(dir, 'gemini-login.txt'), 'utf8') : '').not.toContain('gemini-login');
      expect(readFileSync(join(dir, '.ralph', 'fix_plan.md'), 'utf8')).toContain('found a task');
      // A missing folder of the agent's settings was made empty beforehand and held; it stays empty.
      expect(readdirSync(join(claude, 'hooks'))).toEqual([]);
      // The stand-ins for missing names are gone, and git never saw them.
      expect(git(dir, 'status', '--porcelain', '--ignored', '.ralph/.gate_action')).toBe('');
    });
  },
);
