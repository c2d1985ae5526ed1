// `$VAR` in .ralphrc follows the rules of the agent's environment: a variable named like a
// credential (DEPLOY_CREDS), or holding one under a harmless name, is never expanded into a
// setting — it would be written in clear to status.json, the logs and `ralph --config`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ralphProject } from '../helpers/ralph-project.js';
import { fakeClaude, ralph } from '../helpers/run-cli.js';

const CREDS = 'deploy:Xq7pL2mN9vR4tK8w';
const MIRROR = 'https://Tk9xL2mQ7vR4pN8wZ3yB5cD1@git.corp.example/repo.git';

describe('a credential referenced in .ralphrc', () => {
  it.each([
    ['VERIFY_COMMAND="./deploy.sh --creds $DEPLOY_CREDS"', '$DEPLOY_CREDS looks like a secret', '--verify-env DEPLOY_CREDS='],
    ['VERIFY_COMMAND="git clone ${MIRROR_URL_OF_TEAM} x"', '$MIRROR_URL_OF_TEAM holds what looks like a credential', '--verify-env MIRROR_URL_OF_TEAM='],
  ])('%s is refused by the loop and by --config, naming the file, line and how to pass it', async (line, why, how) => {
    const dir = ralphProject({ ralphrc: `# project\n${line}\n` });
    const fake = fakeClaude([]);
    const env = { ...fake.env, DEPLOY_CREDS: CREDS, MIRROR_URL_OF_TEAM: MIRROR };
    for (const args of [['--config'], ['--max-loops', '1', '--pause', '0']]) {
      const r = await ralph(args, dir, env);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('.ralphrc:2');
      expect(r.stderr).toContain(why);
      expect(r.stderr).toContain(how);
      expect(r.stdout + r.stderr).not.toContain('Xq7pL2mN9vR4tK8w');
      expect(r.stdout + r.stderr).not.toContain('Tk9xL2mQ7vR4pN8wZ3yB5cD1');
    }
    expect(fake.calls()).toEqual([]);
    const status = join(dir, '.ralph', 'status.json');
    if (existsSync(status)) expect(readFileSync(status, 'utf8')).not.toContain('Xq7pL2mN9vR4tK8w');
  });
});
