/**
 * Whether the token Ralph pushes and opens pull requests with can start the
 * checks it then waits for. GitHub starts no workflow runs for events made
 * with a workflow's own GITHUB_TOKEN (so a run cannot set off another), so
 * following checks after such a push waits for checks that never come. Ralph
 * can tell when its Action says so (RALPH_TOKEN_IS_ACTIONS_TOKEN, set by
 * comparing the token input with the workflow's token), and can guess inside
 * a workflow from an installation token taken from GITHUB_TOKEN. Only a
 * prefix of the token is ever looked at; it is never printed.
 */
export const ACTIONS_TOKEN_ENV = 'RALPH_TOKEN_IS_ACTIONS_TOKEN';

const ADVICE =
  "GitHub starts no workflow runs for pushes made with a workflow's own GITHUB_TOKEN, so these checks may never come: give Ralph (and actions/checkout) a personal access token or a GitHub App token instead (see docs/following-ci.md)";

export function pushTokenWarning(env: Readonly<Record<string, string | undefined>>, tokenSource: string, tokenPrefix: string): string | undefined {
  if (env['GITHUB_ACTIONS'] !== 'true') return undefined;
  const told = env[ACTIONS_TOKEN_ENV];
  if (told === 'true') return `the token is the workflow's GITHUB_TOKEN. ${ADVICE}`;
  if (told === 'false') return undefined;
  // Installation tokens start with ghs_: the workflow's own, or a GitHub App's (which does start workflows).
  if (tokenSource === 'GITHUB_TOKEN' && tokenPrefix.startsWith('ghs_')) return `the token in GITHUB_TOKEN looks like the workflow's own. ${ADVICE}`;
  return undefined;
}
