import { describe, expect, it } from 'vitest';
import { opencodePermissions } from '../../../../src/backends/opencode/opencode-permissions.js';
import { DEFAULT_ALLOWED_TOOLS } from '../../../../src/config/keys.js';

describe('opencodePermissions', () => {
  it('maps listed commands to bash patterns after a catch-all refusal', () => {
    const rules = opencodePermissions(['Write', 'Read', 'Bash(git diff *)', 'Bash(npm:*)', 'Bash(pytest)']);
    expect(rules).toEqual({
      edit: 'allow',
      bash: { '*': 'deny', 'git diff *': 'allow', 'npm *': 'allow', pytest: 'allow' },
      webfetch: 'deny',
      websearch: 'deny',
      external_directory: 'deny',
    });
    expect(Object.keys(rules?.['bash'] as object)[0]).toBe('*');
  });

  it('allows every command for a bare Bash, and refuses edits without Write or Edit', () => {
    expect(opencodePermissions(['Read', 'Bash', 'WebFetch'])).toMatchObject({ edit: 'deny', bash: 'allow', webfetch: 'allow' });
  });

  it('refuses every command when no Bash rule is listed', () => {
    expect(opencodePermissions(['Edit'])).toMatchObject({ edit: 'allow', bash: 'deny' });
  });

  it("lets OpenCode's own configuration decide when no tools are listed", () => {
    expect(opencodePermissions([])).toBeUndefined();
  });

  it("lets Ralph's default tools run git and the test commands", () => {
    const bash = opencodePermissions(DEFAULT_ALLOWED_TOOLS)?.['bash'] as Record<string, string>;
    expect(bash['git commit *']).toBe('allow');
    expect(bash['npm test']).toBe('allow');
    expect(bash['*']).toBe('deny');
  });
});
