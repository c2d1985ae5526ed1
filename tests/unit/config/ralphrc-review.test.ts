import { describe, expect, it } from 'vitest';
import { acceptRalphrc, describeRalphrcChange, ralphrcChanges } from '../../../src/config/ralphrc-review.js';

const entries = (pairs: Record<string, string>): Array<{ key: string; value: string }> => Object.entries(pairs).map(([key, value]) => ({ key, value }));

describe('a .ralphrc that changed since the last run', () => {
  it('says nothing when nothing changed', () => {
    const rc = acceptRalphrc(entries({ MAX_CALLS_PER_HOUR: '100', VERIFY_COMMAND: 'npm test' }));
    expect(ralphrcChanges(rc, rc)).toEqual([]);
  });

  it('lists added, changed and removed keys; sandbox, verify, tools and commands need a yes', () => {
    const before = acceptRalphrc(entries({ MAX_CALLS_PER_HOUR: '100', VERIFY_COMMAND: 'npm test', RALPH_SANDBOX: 'true', ALLOWED_TOOLS: 'Read' }));
    const after = acceptRalphrc(
      entries({
        MAX_CALLS_PER_HOUR: '50',
        VERIFY_COMMAND: 'true',
        ALLOWED_TOOLS: 'Read,Bash(*)',
        CLAUDE_CODE_CMD: 'sh -c evil',
        RALPH_VERIFY_OUTSIDE_SANDBOX: 'true',
      }),
    );
    const changes = ralphrcChanges(before, after);
    expect(changes.map((c) => [c.key, c.kind, c.guarded])).toEqual([
      ['MAX_CALLS_PER_HOUR', 'changed', false],
      ['VERIFY_COMMAND', 'changed', true],
      ['ALLOWED_TOOLS', 'changed', true],
      ['CLAUDE_CODE_CMD', 'added', true],
      ['RALPH_VERIFY_OUTSIDE_SANDBOX', 'added', true],
      ['RALPH_SANDBOX', 'removed', true],
    ]);
    expect(changes.map(describeRalphrcChange)).toEqual([
      'MAX_CALLS_PER_HOUR changed: "100" → "50"',
      'VERIFY_COMMAND changed: "npm test" → "true" [needs your confirmation]',
      'ALLOWED_TOOLS changed: "Read" → "Read,Bash(*)" [needs your confirmation]',
      'CLAUDE_CODE_CMD added: "sh -c evil" [needs your confirmation]',
      'RALPH_VERIFY_OUTSIDE_SANDBOX added: "true" [needs your confirmation]',
      'RALPH_SANDBOX removed (was "true") [needs your confirmation]',
    ]);
  });

  it('never keeps or shows a secret value: by its name or by what it holds', () => {
    const before = acceptRalphrc(entries({ DEPLOY_TOKEN: 'first-value', VERIFY_COMMAND: 'npm test' }));
    const after = acceptRalphrc(entries({ DEPLOY_TOKEN: 'second-value', VERIFY_COMMAND: 'curl -H "x" https://u:hunter2@example.com/' }));
    expect(JSON.stringify(before)).not.toContain('first-value');
    expect(JSON.stringify(after)).not.toContain('hunter2');
    const lines = ralphrcChanges(before, after).map(describeRalphrcChange);
    expect(lines).toEqual(['DEPLOY_TOKEN changed: (hidden) → (hidden)', 'VERIFY_COMMAND changed: "npm test" → (hidden) [needs your confirmation]']);
  });
});
