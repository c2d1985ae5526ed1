import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run lint` keeps each folder of src/ to its layer (docs/architecture.md). These tests run
 * the layer rule exactly as the repository's eslint.config.js configures it, on small sources
 * placed at chosen paths, so they show what the config forbids and what it lets through.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface LayerConfig {
  plugin: NonNullable<Linter.Config['plugins']>[string];
  options: Linter.RuleEntry;
}

let layers: LayerConfig;
const linter = new Linter({ cwd: ROOT, configType: 'flat' });

beforeAll(async () => {
  const config: unknown = await new ESLint({ cwd: ROOT }).calculateConfigForFile(join(ROOT, 'src/engine/loop-controller.ts'));
  const { plugins, rules } = config as { plugins?: Record<string, unknown>; rules?: Record<string, unknown> };
  expect(plugins?.['ralph'], 'eslint.config.js registers the ralph plugin for src/').toBeDefined();
  expect(rules?.['ralph/layers'], 'eslint.config.js turns ralph/layers on for src/').toBeDefined();
  layers = { plugin: plugins?.['ralph'] as LayerConfig['plugin'], options: rules?.['ralph/layers'] as Linter.RuleEntry };
});

/** Layer problems the rule reports for `code` placed at `file` (project-relative). */
function lintAt(file: string, code: string, options: Linter.RuleEntry = layers.options): Linter.LintMessage[] {
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser as Linter.Parser },
      plugins: { ralph: layers.plugin },
      rules: { 'ralph/layers': options },
    },
  ];
  return linter.verify(code, config, { filename: join(ROOT, file) });
}

function problems(file: string, code: string, options?: Linter.RuleEntry): string[] {
  return lintAt(file, code, options).map((message) => {
    expect(message.ruleId, message.message).toBe('ralph/layers');
    return message.message;
  });
}

describe('layer rule', () => {
  it.each([
    ['src/engine/probe.ts', "import { renderHaltScreen } from '../ui/screens.js';", 'src/ui/screens.ts'],
    ['src/engine/probe.ts', "import { type WaitEnd } from '../ui/wait-countdown.js';", 'src/ui/wait-countdown.ts'],
    ['src/engine/probe.ts', "const m = await import('../ui/wait-countdown.js');", 'src/ui/wait-countdown.ts'],
    ['src/engine/probe.ts', 'const m = await import(`../ui/wait-countdown.js`);', 'src/ui/wait-countdown.ts'],
    ['src/engine/probe.ts', "export * from '../ui/screens.js';", 'src/ui/screens.ts'],
    ['src/engine/probe.ts', "type R = import('../ui/screens.js').Screen;\nimport '../ui/screens.js';", 'src/ui/screens.ts'],
    ['src/engine/probe.ts', "export { systemClock } from '../infra/system-clock.js';", 'src/infra/system-clock.ts'],
    ['src/engine/probe.ts', "import { runMain } from '../cli/main.js';", 'src/cli/main.ts'],
    ['src/engine/probe.ts', "import { LoopStore } from '../state/loop-store.js';", 'src/state/loop-store.ts'],
    ['src/engine/probe.ts', "import { setupProject } from '../features/setup/setup-project.js';", 'src/features/setup/setup-project.ts'],
    ['src/engine/probe.ts', "import { MockBackend } from '../backends/mock-backend.js';", 'src/backends/mock-backend.ts'],
    ['src/engine/probe.ts', "import { readFileSync } from 'node:fs';", 'node:fs'],
    ['src/engine/probe.ts', "import { readFile } from 'fs/promises';", 'node:fs/promises'],
    ['src/engine/probe.ts', "import lockfile from 'proper-lockfile';", 'proper-lockfile'],
    ['src/engine/probe.ts', "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';", '@modelcontextprotocol/sdk'],
    ['src/features/mcp/probe.ts', "import { buildStatusJson } from '../../cli/commands/status-snapshot.js';", 'src/cli/commands/status-snapshot.ts'],
    ['src/features/mcp/probe.ts', "import type { RalphArgs } from '../../cli/ralph-args.js';", 'src/cli/ralph-args.ts'],
    ['src/features/probe.ts', "import { runMain } from '../cli/main.js';", 'src/cli/main.ts'],
    ['src/features/monitor/probe.ts', "import { Command } from 'commander';", 'commander'],
    ['src/core/probe.ts', "import { readFileSync } from 'node:fs';", 'node:fs'],
    ['src/core/probe.ts', "import { spawn } from 'child_process';", 'node:child_process'],
    ['src/core/probe.ts', "import { hostname } from 'node:os';", 'node:os'],
    ['src/core/probe.ts', "import chalk from 'chalk';", 'chalk'],
    ['src/core/probe.ts', "import type { LoopStore } from '../state/loop-store.js';", 'src/state/loop-store.ts'],
    ['src/core/probe.ts', "import { runLoop } from '../engine/loop-controller.js';", 'src/engine/loop-controller.ts'],
    ['src/backends/probe.ts', "import { createLogger } from '../ui/logger.js';", 'src/ui/logger.ts'],
    ['src/backends/claude/probe.ts', "import { runMain } from '../../cli/main.js';", 'src/cli/main.ts'],
    ['src/backends/probe.ts', "import { setupProject } from '../features/setup/setup-project.js';", 'src/features/setup/setup-project.ts'],
    ['src/state/probe.ts', "import { runMain } from '../cli/main.js';", 'src/cli/main.ts'],
    ['src/infra/probe.ts', "import { runMain } from '../cli/main.js';", 'src/cli/main.ts'],
    ['src/ui/probe.ts', "import { runMain } from '../cli/main.js';", 'src/cli/main.ts'],
    ['src/config/probe.ts', "import { runMain } from '../cli/main.js';", 'src/cli/main.ts'],
  ])('%s: %s is forbidden', (file, code, target) => {
    const found = problems(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`${file} (`);
    expect(found[0]).toContain(`must not import ${target}: `);
  });

  it.each([
    ['src/engine/probe.ts', "import type { LoopStore } from '../state/loop-store.js';"],
    ['src/engine/probe.ts', "import type { WaitEnd } from '../ui/wait-countdown.js';"],
    ['src/engine/probe.ts', "export type { ProgressProbe } from '../infra/progress-probe.js';"],
    ['src/engine/probe.ts', "type R = import('../ui/screens.js').Screen;"],
    ['src/engine/probe.ts', "import { recordIteration } from '../core/circuit-breaker.js';"],
    ['src/engine/probe.ts', "import type { Clock } from '../ports.js';"],
    ['src/engine/probe.ts', "import { RalphError } from '../errors.js';"],
    ['src/engine/probe.ts', "import { join } from 'node:path';"],
    ['src/core/probe.ts', "import { isAbsolute } from 'node:path';"],
    ['src/core/probe.ts', "import { fileURLToPath } from 'node:url';"],
    ['src/core/probe.ts', "import type { RalphConfig } from '../config/keys.js';"],
    ['src/core/probe.ts', "import { isRecord } from './guards.js';"],
    ['src/features/mcp/probe.ts', "import { createRalphLayout } from '../setup/ralph-layout.js';"],
    ['src/features/mcp/probe.ts', "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';"],
    // A folder named cli inside a feature is not the cli layer: imports are resolved, not matched by name.
    ['src/features/mcp/probe.ts', "import { x } from '../cli/x.js';"],
    ['src/backends/probe.ts', "import { spawnGroup } from '../infra/process-group.js';"],
    ['src/cli/probe.ts', "import { runLoop } from '../engine/loop-controller.js';"],
    ['tests/unit/probe.ts', "import { runMain } from '../../src/cli/main.js';"],
  ])('%s: %s is allowed', (file, code) => {
    expect(problems(file, code)).toEqual([]);
  });

  /** The repository's layer options with one exception of our choosing, as eslint/layers.js would list it. */
  function withException(file: string, imports: string): Linter.RuleEntry {
    const [severity, options] = layers.options as [Linter.Severity | Linter.StringSeverity, Record<string, unknown>];
    return [severity, { ...options, exceptions: [{ file, imports }] }];
  }

  it('an exception allows one file one import, and nothing more', () => {
    const options = withException('src/engine/waits.ts', 'src/ui/wait-countdown.ts');
    expect(problems('src/engine/waits.ts', "import { startWaitCountdown } from '../ui/wait-countdown.js';", options)).toEqual([]);
    const other = problems(
      'src/engine/waits.ts',
      "import { startWaitCountdown } from '../ui/wait-countdown.js';\nimport { renderHaltScreen } from '../ui/screens.js';",
      options,
    );
    expect(other).toEqual([expect.stringContaining('must not import src/ui/screens.ts')]);
    expect(problems('src/engine/exit-step.ts', "import { startWaitCountdown } from '../ui/wait-countdown.js';", options)).toEqual([
      expect.stringContaining('must not import src/ui/wait-countdown.ts'),
    ]);
  });

  it('an exception whose import is gone is reported, so the list only shrinks', () => {
    const options = withException('src/engine/waits.ts', 'src/ui/wait-countdown.ts');
    expect(problems('src/engine/waits.ts', "import { formatDuration } from '../core/time-format.js';", options)).toEqual([
      expect.stringContaining('exception letting src/engine/waits.ts import src/ui/wait-countdown.ts is no longer used'),
    ]);
  });

  it('every exception names a file that exists', () => {
    const [, options] = layers.options as [unknown, { exceptions: Array<{ file: string; imports: string }> }];
    for (const exception of options.exceptions) {
      expect(existsSync(join(ROOT, exception.file)), exception.file).toBe(true);
      if (exception.imports.startsWith('src/')) expect(existsSync(join(ROOT, exception.imports)), exception.imports).toBe(true);
    }
  });
});
