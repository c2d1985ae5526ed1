import { describe, expect, it } from 'vitest';
import { pushTokenWarning } from '../../../../../src/core/queue/follow/push-token.js';

describe('pushTokenWarning', () => {
  it.each<[string, Record<string, string>, string, string, RegExp | undefined]>([
    ['outside GitHub Actions: nothing to say', {}, 'GITHUB_TOKEN', 'ghs_', undefined],
    [
      'the Action says it is the workflow token',
      { GITHUB_ACTIONS: 'true', RALPH_TOKEN_IS_ACTIONS_TOKEN: 'true' },
      'GITHUB_TOKEN',
      'ghp_',
      /is the workflow's GITHUB_TOKEN/,
    ],
    ['the Action says it is another token', { GITHUB_ACTIONS: 'true', RALPH_TOKEN_IS_ACTIONS_TOKEN: 'false' }, 'GITHUB_TOKEN', 'ghs_', undefined],
    ['an installation token in GITHUB_TOKEN inside a workflow', { GITHUB_ACTIONS: 'true' }, 'GITHUB_TOKEN', 'ghs_', /looks like the workflow's own/],
    ['a personal access token inside a workflow', { GITHUB_ACTIONS: 'true' }, 'GITHUB_TOKEN', 'ghp_', undefined],
    ['a token from GH_TOKEN', { GITHUB_ACTIONS: 'true' }, 'GH_TOKEN', 'ghs_', undefined],
  ])('%s', (_, env, source, prefix, expected) => {
    const warning = pushTokenWarning(env, source, prefix);
    if (expected === undefined) expect(warning).toBeUndefined();
    else expect(warning).toMatch(expected);
  });
});
