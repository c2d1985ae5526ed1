import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../../src/backends/agents.js';
import { claudeCli } from '../../../src/backends/claude/claude-backend.js';
import { commandOnly } from '../../../src/backends/cli-agent/argv.js';
import { buildCodexArgs } from '../../../src/backends/codex/codex-args.js';
import { buildGeminiArgs } from '../../../src/backends/gemini/gemini-args.js';
import { buildGeminiReadOnlyPolicy } from '../../../src/backends/gemini/gemini-policy.js';
import { opencodeCli } from '../../../src/backends/opencode/opencode-backend.js';
import { parseMockScript, pickResponse } from '../../../src/backends/mock/mock-script.js';
import type { AgentRequest } from '../../../src/ports.js';

const request = (extra: Partial<AgentRequest> = {}): AgentRequest => ({
  loop: 1,
  cwd: '/p',
  prompt: 'Review it.',
  loopContext: '',
  timeoutMs: 60_000,
  outputLogPath: '/p/.ralph/logs/out.log',
  live: false,
  ...extra,
});

/** The words after `flag` up to the next flag. */
function listAfter(args: readonly string[], flag: string): string[] {
  const at = args.indexOf(flag);
  if (at < 0) return [];
  const rest = args.slice(at + 1);
  const end = rest.findIndex((a) => a.startsWith('-'));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('read-only calls (the reviewer)', () => {
  it('every agent declares a read-only mode', () => {
    for (const agent of AGENTS) expect(agent.readOnly?.about, agent.name).toBeTruthy();
  });

  it('Claude Code: reading tools only, every writing tool and Bash refused, the user permission modes left out', () => {
    const cli = claudeCli({
      settings: {
        ...commandOnly(['claude']),
        extraArgs: ['--permission-mode', 'bypassPermissions', '--dangerously-skip-permissions', '--mcp-config', 'm.json'],
      },
      outputFormat: 'json',
      allowedTools: ['Write', 'Edit', 'Bash(git commit *)'],
    });
    const { args } = cli.buildCall(request({ readOnly: true }));
    expect(listAfter(args, '--allowedTools')).toEqual(['Read', 'Glob', 'Grep']);
    expect(listAfter(args, '--disallowedTools')).toEqual(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash']);
    expect(args).not.toContain('--dangerously-skip-permissions');
    expect(args).not.toContain('bypassPermissions');
    expect(args).toContain('--mcp-config');
    expect(args).not.toContain('--resume');
    // The worker's calls are as they were.
    const worker = cli.buildCall(request()).args;
    expect(listAfter(worker, '--allowedTools')).toEqual(['Write', 'Edit', 'Bash(git commit *)']);
    expect(worker).not.toContain('--disallowedTools');
  });

  it.each([
    [[], ['--sandbox', 'read-only']],
    [['--dangerously-bypass-approvals-and-sandbox'], ['--sandbox', 'read-only']],
    [
      ['--sandbox', 'workspace-write', '-c', 'sandbox_mode=danger-full-access', '--full-auto'],
      ['--sandbox', 'read-only'],
    ],
  ])('Codex with extra arguments %j: --sandbox read-only and no bypass', (extraArgs, expected) => {
    const { args } = buildCodexArgs({ ...commandOnly(['codex']), extraArgs }, { prompt: 'p', readOnly: true });
    expect(args.join(' ')).toContain(expected.join(' '));
    expect(args).not.toContain('--dangerously-bypass-approvals-and-sandbox');
    expect(args).not.toContain('workspace-write');
    expect(args).not.toContain('--full-auto');
    expect(args.filter((a) => a.startsWith('sandbox_mode'))).toEqual([]);
  });

  it('Gemini CLI: the default approval mode whatever the extra arguments say, and a policy that denies writing', () => {
    const { args } = buildGeminiArgs(
      { ...commandOnly(['gemini']), extraArgs: ['--yolo', '--approval-mode', 'auto_edit', '--debug'] },
      { prompt: 'p', readOnly: true },
      '/x.toml',
    );
    expect(args.filter((a) => a === '--approval-mode' || a === '--yolo')).toEqual(['--approval-mode']);
    expect(listAfter(args, '--approval-mode')).toEqual(['default']);
    expect(args).toContain('--debug');
    const policy = buildGeminiReadOnlyPolicy(['Read', 'Glob'], ['Write', 'Edit', 'Bash']).toml;
    expect(policy).toContain('toolName = "read_file"\ndecision = "allow"');
    expect(policy).toContain('toolName = "glob"\ndecision = "allow"');
    for (const tool of ['write_file', 'replace', 'run_shell_command']) expect(policy).toContain(`toolName = "${tool}"\ndecision = "deny"\npriority = 900`);
  });

  it('OpenCode: edit, bash and the web denied whatever ALLOWED_TOOLS says', () => {
    const cli = opencodeCli({ settings: commandOnly(['opencode']), allowedTools: ['Write', 'Bash'], env: {} });
    const permission = JSON.parse(cli.buildCall(request({ readOnly: true })).env?.['OPENCODE_PERMISSION'] ?? '{}') as Record<string, unknown>;
    expect(permission).toMatchObject({ edit: 'deny', bash: 'deny', webfetch: 'deny', websearch: 'deny' });
    const worker = JSON.parse(cli.buildCall(request()).env?.['OPENCODE_PERMISSION'] ?? '{}') as Record<string, unknown>;
    expect(worker).toMatchObject({ edit: 'allow', bash: 'allow' });
  });
});

describe('mock script: the reviewer hat', () => {
  const script = (responses: unknown[]) => {
    const parsed = parseMockScript(responses);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.responses;
  };

  it('reviewer responses answer only read-only calls; the worker passes them by', () => {
    const responses = script([{ output: 'w1' }, { output: 'r1', hat: 'reviewer' }, { output: 'w2' }]);
    expect(pickResponse(responses, new Set(), 'x')).toBe(0);
    expect(pickResponse(responses, new Set([0]), 'x')).toBe(2);
    expect(pickResponse(responses, new Set([0]), 'x', true)).toBe(1);
    expect(pickResponse(responses, new Set([1]), 'x', true)).toBeUndefined();
  });

  it('a script with no reviewer answers the reviewer in order; other hats play the worker', () => {
    const responses = script([{ output: 'a', hat: 'builder' }, { output: 'b' }]);
    expect(pickResponse(responses, new Set(), 'x', true)).toBe(0);
    expect(pickResponse(responses, new Set(), 'x')).toBe(0);
  });
});
