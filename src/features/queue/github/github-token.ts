import type { ProcessRunner } from '../../../ports.js';
import { ExitCode, RalphError } from '../../../errors.js';
import { addSecretValues } from '../../../state/redaction.js';

/**
 * The user's GitHub token: GITHUB_TOKEN (what GitHub Actions provides), then
 * GH_TOKEN (what the gh CLI reads), then what `gh auth token` prints when gh
 * is installed and logged in. A token found through gh is added to the
 * values Ralph redacts, like the environment's, so it never reaches the
 * terminal or a file.
 */
export interface GithubToken {
  value: string;
  source: 'GITHUB_TOKEN' | 'GH_TOKEN' | 'gh auth token';
}

const GH_TIMEOUT_MS = 10_000;

export const MISSING_TOKEN_HINT =
  'Set GITHUB_TOKEN to a token that can read issues (and write pull requests for --pr): create one at https://github.com/settings/tokens, or install the GitHub CLI and run `gh auth login`.';

export async function resolveGithubToken(env: Readonly<Record<string, string | undefined>>, runner: ProcessRunner, cwd: string): Promise<GithubToken> {
  for (const name of ['GITHUB_TOKEN', 'GH_TOKEN'] as const) {
    const value = env[name]?.trim();
    if (value) return { value, source: name };
  }
  const gh = await runner.run('gh', ['auth', 'token'], { cwd, timeoutMs: GH_TIMEOUT_MS, env: { ...env, GH_PROMPT_DISABLED: '1', NO_COLOR: '1' } });
  const value = gh.exitCode === 0 ? gh.stdout.trim() : '';
  if (value !== '' && !/\s/.test(value)) {
    addSecretValues([{ name: 'gh auth token', value }]);
    return { value, source: 'gh auth token' };
  }
  const why =
    gh.spawnError !== undefined ? 'the GitHub CLI (gh) is not installed' : gh.timedOut ? '`gh auth token` did not answer in time' : 'gh is not logged in';
  throw new RalphError(`No GitHub token: GITHUB_TOKEN and GH_TOKEN are not set and ${why}.`, ExitCode.RuntimeError, MISSING_TOKEN_HINT);
}
