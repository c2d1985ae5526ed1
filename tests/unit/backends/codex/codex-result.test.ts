// Every recorded case of the real Codex CLI 0.169.0 (tests/fixtures/codex-cli) read as Ralph reads it.
import { describe, expect, it } from 'vitest';
import { callUsage } from '../../../../src/backends/codex/codex-result.js';
import { replay } from './codex-fixtures.js';

describe('a Codex run read from its recorded output', () => {
  it('success: the final message, the thread id, tokens without the cached ones, an estimated cost', () => {
    const { result } = replay('success-tool-use.jsonl');
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.complete).toBe(true);
    expect(result.structured).toBe(true);
    expect(result.text.head).toMatch(/^Created hello.txt and checked git status\.\n\n---RALPH_STATUS---[\s\S]*EXIT_SIGNAL: true/);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // Two requests of 1200 input (200 cached) and 80 output tokens each.
    expect(result.usage).toEqual({ inputTokens: 2000, cacheReadInputTokens: 400, cacheCreationInputTokens: 0, outputTokens: 160 });
    // gpt-5.1-codex: 1.25 $/M input, 0.125 cached, 10 output.
    expect(result.cost).toEqual({ usd: expect.closeTo((2000 * 1.25 + 400 * 0.125 + 160 * 10) / 1e6, 12), source: 'estimated' });
    expect(result.toolUses).toBe(1);
    expect(result.lastToolUse).toEqual({ name: 'Shell', argument: 'printf "hello\\n" > hello.txt && git status --short' });
    expect(result.warnings).toEqual([expect.stringContaining('Model metadata for `gpt-5.1-codex` not found')]);
  });

  it('a file written with apply_patch is an Edit of its path, priced at the list price of its model', () => {
    const { result, progress } = replay('success-apply-patch.jsonl', { model: 'gpt-5.5' });
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.toolUses).toBe(1);
    expect(result.lastToolUse).toEqual({ name: 'Edit', argument: '<case>/repo/notes/plan.md' });
    expect(progress.filter((e) => e.kind === 'tool_use')).toEqual([{ kind: 'tool_use', tool: 'Edit', argument: '<case>/repo/notes/plan.md' }]);
    expect(result.usage?.outputTokens).toBe(160);
    expect(result.cost?.source).toBe('estimated');
    expect(result.warnings).toEqual([]);
  });

  it('no cost for a model the price table does not list (Codex’s default model is not known to Ralph)', () => {
    expect(replay('success-tool-use.jsonl', { model: '' }).result.cost).toBeUndefined();
    expect(replay('success-apply-patch.jsonl', { model: 'gpt-5.6-sol' }).result.cost).toBeUndefined();
  });

  it('a resumed thread: only what this call added to the thread’s totals', () => {
    const before = replay('success-tool-use.jsonl').result.usage;
    const { result } = replay('success-resume.jsonl', { model: 'gpt-5.1-codex', ...(before ? { usageBefore: before } : {}) });
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.usage).toEqual({ inputTokens: 1000, cacheReadInputTokens: 200, cacheCreationInputTokens: 0, outputTokens: 80 });
  });

  it('retries on the way ("Reconnecting… n/m") are no failure, and show as API retries', () => {
    const { result, progress } = replay('retries-then-success.jsonl');
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.errors).toEqual([]);
    expect(progress.filter((e) => e.kind === 'api_retry')).toEqual([
      { kind: 'api_retry', attempt: 1, maxRetries: 2, error: expect.stringContaining('idle timeout') },
      { kind: 'api_retry', attempt: 2, maxRetries: 2, error: expect.stringContaining('upstream connection reset') },
    ]);
  });

  it('a wrong API key (401) is unrecoverable, with advice, and the key is not in the message', () => {
    const { result } = replay('error-auth.jsonl');
    expect(result.outcome).toMatchObject({
      kind: 'unrecoverable',
      message: expect.stringContaining('401 Unauthorized'),
      advice: expect.stringContaining('codex login'),
    });
    expect(result.apiStatus).toBe(401);
    expect(JSON.stringify(result)).not.toContain('wrong-key-for-tests');
  });

  it('a rate limit Codex gave up retrying is transient, with its status', () => {
    expect(replay('error-rate-limit.jsonl').result.outcome).toMatchObject({ kind: 'api_transient', status: 429 });
  });

  it('a server error ("high demand") is transient', () => {
    expect(replay('error-server.jsonl').result.outcome).toMatchObject({ kind: 'api_transient', message: expect.stringContaining('high demand') });
  });

  it('an exhausted quota stops the loop with what to do', () => {
    expect(replay('error-quota.jsonl').result.outcome).toMatchObject({
      kind: 'unrecoverable',
      message: 'Quota exceeded. Check your plan and billing details.',
      advice: expect.stringContaining('Billing'),
    });
  });

  it('a ChatGPT plan that does not include Codex stops the loop too', () => {
    expect(replay('error-plan-not-included.jsonl').result.outcome).toMatchObject({
      kind: 'unrecoverable',
      message: expect.stringContaining('upgrade to Plus'),
    });
  });

  it('a refused access (403) stops the loop with what to check', () => {
    const { result } = replay('error-forbidden.jsonl');
    expect(result.outcome).toMatchObject({
      kind: 'unrecoverable',
      message: expect.stringContaining('403 Forbidden'),
      advice: expect.stringContaining('CODEX_MODEL'),
    });
    expect(result.apiStatus).toBe(403);
  });

  it('a model the account cannot use stops the loop with what to check', () => {
    expect(replay('error-model-not-found.jsonl').result.outcome).toMatchObject({
      kind: 'unrecoverable',
      message: expect.stringContaining('`gpt-9` does not exist'),
      advice: expect.stringContaining('CODEX_MODEL'),
    });
  });

  it('a usage limit, with the reset time Codex printed', () => {
    expect(replay('error-usage-limit.jsonl').result.outcome).toEqual({
      kind: 'usage_limit',
      message: expect.stringContaining('hit your usage limit'),
      resetAt: Date.parse('2026-11-27T17:20:00Z'),
    });
  });

  it('a full context window fails the call and asks for a new thread', () => {
    expect(replay('error-context-window.jsonl').result.outcome).toMatchObject({
      kind: 'failed',
      resetSession: true,
      message: expect.stringContaining('context window. Start a new thread'),
    });
  });

  it('a thread Codex no longer has fails the call and starts a new one next time', () => {
    const { result } = replay('error-resume-unknown.jsonl');
    expect(result.outcome).toMatchObject({ kind: 'failed', resetSession: true, message: expect.stringContaining('no rollout found for thread id') });
    expect(result.structured).toBe(false);
  });

  it('a command refused its escalation (nobody can approve it) is a permission denial', () => {
    const { result } = replay('escalation-refused.jsonl');
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.permissionDenials).toEqual([{ tool: 'Shell', detail: 'a command that asked to run outside the sandbox' }]);
  });

  it("a write Codex's own read-only sandbox refused is a permission denial of the command", () => {
    const { result } = replay('sandbox-read-only-write.jsonl', { model: 'gpt-5.1-codex', sandboxed: true });
    expect(result.outcome).toEqual({ kind: 'success' });
    expect(result.permissionDenials).toEqual([{ tool: 'Shell', detail: 'touch hello.txt' }]);
  });

  it('a command that failed on a read-only file with no Codex sandbox in use is no denial of Codex', () => {
    expect(replay('sandbox-read-only-write.jsonl', { model: 'gpt-5.1-codex', sandboxed: false }).result.permissionDenials).toEqual([]);
  });

  it('progress: session, the command when it starts, the message, the end of the turn', () => {
    const { result, progress } = replay('success-tool-use.jsonl');
    expect(progress.map((e) => e.kind)).toEqual(['session_started', 'tool_use', 'message', 'finished']);
    expect(progress[0]).toEqual({ kind: 'session_started', sessionId: result.sessionId });
    expect(progress.at(-1)).toMatchObject({ kind: 'finished', isError: false, answer: expect.stringContaining('RALPH_STATUS') });
  });

  it('a failed turn ends the progress as an error', () => {
    expect(replay('error-quota.jsonl').progress.at(-1)).toMatchObject({
      kind: 'finished',
      isError: true,
      reason: 'Quota exceeded. Check your plan and billing details.',
    });
  });
});

describe('callUsage', () => {
  const u = (n: number): { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number } => ({
    inputTokens: n,
    outputTokens: n,
    cacheReadInputTokens: n,
    cacheCreationInputTokens: 0,
  });
  it('is the thread’s totals when nothing came before', () => expect(callUsage(u(5), undefined)).toEqual(u(5)));
  it('is the difference on a resumed thread', () => expect(callUsage(u(7), u(5))).toEqual({ ...u(2), cacheCreationInputTokens: 0 }));
  it('takes the totals whole when they went down (the thread was compacted)', () => expect(callUsage(u(3), u(5))).toEqual(u(3)));
});
