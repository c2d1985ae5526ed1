import { describe, expect, it } from 'vitest';
import { buildGeminiPolicy } from '../../../../src/backends/gemini/gemini-policy.js';
import { DEFAULT_ALLOWED_TOOLS } from '../../../../src/config/keys.js';

/** The rules of a policy as [toolName, commandPrefix list or undefined]. */
function rules(toml: string): Array<[string, string[] | undefined]> {
  return toml
    .split('[[rule]]')
    .slice(1)
    .map((block) => {
      const tool = /toolName = "([^"]+)"/.exec(block)?.[1] ?? '';
      const prefixes = /commandPrefix = \[(.*)\]/.exec(block)?.[1];
      expect(block).toContain('decision = "allow"');
      return [tool, prefixes === undefined ? undefined : (JSON.parse(`[${prefixes}]`) as string[])];
    });
}

describe('buildGeminiPolicy', () => {
  it("turns Ralph's default ALLOWED_TOOLS into Gemini tools and shell command prefixes", () => {
    const policy = buildGeminiPolicy(DEFAULT_ALLOWED_TOOLS);
    expect(policy.untranslated).toEqual([]);
    const byTool = new Map(rules(policy.toml));
    expect([...byTool.keys()].sort()).toEqual(['read_file', 'read_many_files', 'replace', 'run_shell_command', 'write_file']);
    const prefixes = byTool.get('run_shell_command') ?? [];
    expect(prefixes).toContain('git status');
    expect(prefixes).toContain('git commit');
    expect(prefixes).toContain('npm run');
    expect(prefixes).toContain('pytest');
    expect(prefixes).not.toContain('git push');
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('allows every shell command for a bare Bash rule, redirections included', () => {
    const policy = buildGeminiPolicy(['Bash', 'Bash(git status)']).toml;
    expect(rules(policy)).toEqual([['run_shell_command', undefined]]);
    expect(policy).toContain('allowRedirection = true');
    expect(buildGeminiPolicy(['Bash(git log *)']).toml).not.toContain('allowRedirection');
    expect(rules(buildGeminiPolicy(['Bash(*)']).toml)).toEqual([['run_shell_command', undefined]]);
  });

  it("reads Claude's legacy prefix form", () => {
    expect(rules(buildGeminiPolicy(['Bash(npm test:*)']).toml)).toEqual([['run_shell_command', ['npm test']]]);
  });

  it('names the rules Gemini cannot express instead of widening them', () => {
    const policy = buildGeminiPolicy(['Write', 'Bash(git * --force)', 'mcp__github__create_issue', 'NotebookEdit']);
    expect(policy.untranslated).toEqual(['Bash(git * --force)', 'mcp__github__create_issue', 'NotebookEdit']);
    expect(rules(policy.toml)).toEqual([['write_file', undefined]]);
  });

  it('escapes a command so it stays one TOML string', () => {
    const policy = buildGeminiPolicy(['Bash(echo "a\\b")']);
    expect(rules(policy.toml)).toEqual([['run_shell_command', ['echo "a\\b"']]]);
  });

  it('writes no policy when nothing is allowed', () => {
    expect(buildGeminiPolicy([])).toEqual({ toml: '', untranslated: [] });
  });
});
