import { NO_REDACTION } from '../../../../src/core/secret-redactor.js';
import type { AgentBackend } from '../../../../src/ports.js';
import { describe, expect, it } from 'vitest';
import { commandOnly } from '../../../../src/backends/cli-agent/argv.js';
import { geminiBackend, policyPathFor } from '../../../../src/backends/gemini/gemini-backend.js';
import { createMemoryLogger } from '../../../../src/ui/logger.js';

const backend = (allowedTools: string[]): AgentBackend =>
  geminiBackend({ outputRedactor: () => NO_REDACTION, settings: commandOnly(['gemini']), allowedTools, env: {}, logger: createMemoryLogger() });
const request = { loop: 1, cwd: '/p', prompt: 'Do it.', loopContext: 'Loop #1.', timeoutMs: 1000, live: false };

describe('GeminiBackend.describe', () => {
  it('names the policy file beside the call log', () => {
    const line = backend(['Write']).describe({ ...request, outputLogPath: '/p/.ralph/logs/claude_output_1.log' });
    expect(line).toContain('--policy /p/.ralph/logs/claude_output_1.policy.toml');
    expect(line).toMatch(/-p <prompt:\d+ chars>$/);
  });

  it('a dry run, which has no call log, says what the policy is made of', () => {
    expect(backend(['Write']).describe({ ...request, outputLogPath: '' })).toContain('--policy "<ALLOWED_TOOLS policy>"');
  });

  it('passes no policy when ALLOWED_TOOLS allows nothing Gemini has', () => {
    expect(backend(['mcp__x__y']).describe({ ...request, outputLogPath: '/p/out.log' })).not.toContain('--policy');
  });

  it('always reads stream-json', () => {
    expect(backend([]).describeOutput({ ...request, outputLogPath: '/p/out.log' })).toBe('stream-json');
    expect(policyPathFor('/a/b.log')).toBe('/a/b.policy.toml');
  });
});
