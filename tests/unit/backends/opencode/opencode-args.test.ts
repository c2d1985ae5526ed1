import { describe, expect, it } from 'vitest';
import { commandOnly } from '../../../../src/backends/cli-agent/argv.js';
import { buildOpencodeArgs, describeOpencodeInvocation } from '../../../../src/backends/opencode/opencode-args.js';

describe('buildOpencodeArgs', () => {
  it('asks for JSON events, the model, the extra args, the session and a title; the message goes to stdin', () => {
    const invocation = buildOpencodeArgs(
      { command: ['npx', 'opencode-ai'], model: 'anthropic/claude-sonnet-4-5', effort: '', extraArgs: ['--agent', 'build'] },
      {
        resumeSessionId: 'ses_abc',
        loop: 3,
        loopContext: 'Loop #3.',
        prompt: '--- front matter\nDo the work',
      },
    );
    expect(invocation.file).toBe('npx');
    expect(invocation.args).toEqual([
      'opencode-ai',
      'run',
      '--format',
      'json',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--agent',
      'build',
      '--session',
      'ses_abc',
      '--title',
      'Ralph loop 3',
    ]);
    expect(invocation.input).toBe('Loop #3.\n\n--- front matter\nDo the work');
  });

  it('leaves the model and session to OpenCode when none is given', () => {
    const invocation = buildOpencodeArgs(commandOnly(['opencode']), { loop: 1, loopContext: '', prompt: 'Go' });
    expect(invocation.args).toEqual(['run', '--format', 'json', '--title', 'Ralph loop 1']);
    expect(invocation.input).toBe('Go');
  });

  it('logs the size of the message, never its text', () => {
    const line = describeOpencodeInvocation(buildOpencodeArgs(commandOnly(['opencode']), { loop: 2, loopContext: 'ctx', prompt: 'secret plan' }));
    expect(line).toBe('opencode run --format json --title "Ralph loop 2" <message:16 chars on stdin>');
  });
});
