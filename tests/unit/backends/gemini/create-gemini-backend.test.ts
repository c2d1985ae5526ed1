import { NO_REDACTION } from '../../../../src/core/secret-redactor.js';
import { describe, expect, it } from 'vitest';
import { createGeminiBackend } from '../../../../src/backends/gemini/create-gemini-backend.js';
import { GEMINI_CLI_DEFAULT_MODELS } from '../../../../src/backends/gemini/gemini-default-models.js';
import { modelPrice } from '../../../../src/backends/price-table.js';
import type { BackendContext } from '../../../../src/backends/context.js';
import { loadConfig } from '../../../../src/config/load-config.js';
import type { ProcessRunner } from '../../../../src/ports.js';
import { ralphPaths } from '../../../../src/state/paths.js';
import { createMemoryLogger } from '../../../../src/ui/logger.js';

const runner: ProcessRunner = {
  run: () => Promise.reject(new Error('creating the backend runs nothing')),
};

function create(env: Record<string, string>): string[] {
  const logger = createMemoryLogger();
  const config = loadConfig({ env, flags: { backend: 'gemini' } }).config;
  const ctx: BackendContext = {
    config,
    paths: ralphPaths('/p'),
    runner,
    clock: { now: () => 0, sleep: () => Promise.resolve(), every: () => undefined },
    logger,
    env: {},
    outputRedactor: () => NO_REDACTION,
  };
  createGeminiBackend(ctx);
  return logger.lines.filter((line) => line.startsWith('[WARN]'));
}

describe('createGeminiBackend', () => {
  it('says nothing for a listed model and rules Gemini can express', () => {
    expect(create({ GEMINI_MODEL: 'gemini-2.5-pro' })).toEqual([]);
  });

  it("says nothing for Gemini CLI's default model: every model its auto mode may run has a price", () => {
    expect(create({})).toEqual([]);
    for (const model of GEMINI_CLI_DEFAULT_MODELS) expect(modelPrice(model), model).toBeDefined();
  });

  it('says when a model has no list price, and that --max-cost then does nothing', () => {
    expect(create({ GEMINI_MODEL: 'gemini-9-ultra', MAX_COST_USD: '5' })).toEqual([
      '[WARN] No list price is known for model gemini-9-ultra: its calls get no cost estimate and --max-cost is not enforced.',
    ]);
  });

  it('names the ALLOWED_TOOLS rules that do not apply to Gemini', () => {
    expect(create({ GEMINI_MODEL: 'gemini-2.5-flash', ALLOWED_TOOLS: 'Write,mcp__github__create_issue' })).toEqual([
      '[WARN] Gemini CLI has no equivalent of ALLOWED_TOOLS mcp__github__create_issue; it does not apply.',
    ]);
  });
});
