import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run lint` keeps each folder of src/ to its layer's allow-list (eslint/layer-table.js,
 * drawn in docs/architecture.md). These tests run
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
    ['src/engine/probe.ts', "import '../ui/screens.js';", 'src/ui/screens.ts'],
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
    // The arrows that ran back up the drawing before each layer had an allow-list, type imports included.
    ['src/ui/probe.ts', "import type { RunningLoopView } from '../features/queue/running-loops.js';", 'src/features/queue/running-loops.ts'],
    ['src/ui/probe.ts', "import { readRunningLoops } from '../features/queue/running-loops.js';", 'src/features/queue/running-loops.ts'],
    ['src/state/probe.ts', "import type { LoopStorePort } from '../engine/ports.js';", 'src/engine/ports.ts'],
    ['src/infra/probe.ts', "import type { ProgressProbe } from '../engine/ports.js';", 'src/engine/ports.ts'],
    ['src/core/probe.ts', "import type { RalphConfig } from '../config/keys.js';", 'src/config/keys.ts'],
    ['src/core/probe.ts', "type F = import('../config/load-config.js').FlagValues;", 'src/config/load-config.ts'],
    ['src/config/probe.ts', "import { BACKENDS } from '../backends/registry.js';", 'src/backends/registry.ts'],
    ['src/config/probe.ts', "import type { BackendContext } from '../backends/registry.js';", 'src/backends/registry.ts'],
    ['src/state/probe.ts', "import { Utf8Batch } from '../infra/process.js';", 'src/infra/process.ts'],
    ['src/config/probe.ts', "import { ralphPaths } from '../state/paths.js';", 'src/state/paths.ts'],
    ['src/ports.ts', "import type { LoopEvent } from './engine/loop-events.js';", 'src/engine/loop-events.ts'],
    ['src/errors.ts', "import { isRecord } from './core/guards.js';", 'src/core/guards.ts'],
    ['src/agent-result.ts', "import type { Clock } from './ports.js';", 'src/ports.ts'],
    ['src/engine/probe.ts', "import type { LoopStore } from '../state/loop-store.js';", 'src/state/loop-store.ts'],
    ['src/engine/probe.ts', "export type { ProgressProbe } from '../infra/progress-probe.js';", 'src/infra/progress-probe.ts'],
    ['src/engine/probe.ts', "type R = import('../ui/screens.js').Screen;", 'src/ui/screens.ts'],
    ['src/engine/probe.ts', "import { runGit } from '../checkpoints/git.js';", 'src/checkpoints/git.ts'],
    ['src/checkpoints/probe.ts', "import type { LoopEvent } from '../engine/loop-events.js';", 'src/engine/loop-events.ts'],
    ['src/backends/probe.ts', "import { runLoop } from '../engine/loop-controller.js';", 'src/engine/loop-controller.ts'],
    ['src/ui/probe.ts', "import { git } from '../infra/git.js';", 'src/infra/git.ts'],
    // An agent's declaration stands below config: it reaches its code only through import().
    ['src/backends/echo/echo-agent.ts', "import { createEchoBackend } from './create-echo-backend.js';", 'src/backends/echo/create-echo-backend.ts'],
    ['src/backends/echo/echo-agent.ts', "import type { BackendContext } from '../context.js';", 'src/backends/context.ts'],
    ['src/backends/echo/echo-agent.ts', "import { RALPH_FILES } from '../../config/keys.js';", 'src/config/keys.ts'],
    ['src/core/probe.ts', "const m = await import('../backends/agents.js');", 'src/backends/agents.ts'],
    // A folder the table does not know is in no layer, and no layer may import it.
    ['src/core/probe.ts', "import { x } from '../newfolder/x.js';", 'src/newfolder/x.ts'],
    ['src/core/probe.ts', "import { x } from '../loose.js';", 'src/loose.ts'],
  ])('%s: %s is forbidden', (file, code, target) => {
    const found = problems(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`${file} (`);
    expect(found[0]).toContain(`must not import ${target}: `);
  });

  it.each([
    ['src/engine/probe.ts', "import { recordIteration } from '../core/circuit-breaker.js';"],
    ['src/engine/probe.ts', "import type { RalphConfig } from '../config/keys.js';"],
    ['src/engine/probe.ts', "import type { AgentResult } from '../agent-result.js';"],
    ['src/engine/probe.ts', "import type { Clock } from '../ports.js';"],
    ['src/engine/probe.ts', "import { RalphError } from '../errors.js';"],
    ['src/engine/probe.ts', "import { join } from 'node:path';"],
    ['src/core/probe.ts', "import { isAbsolute } from 'node:path';"],
    ['src/core/probe.ts', "import { fileURLToPath } from 'node:url';"],
    ['src/core/probe.ts', "import type { AgentResult } from '../agent-result.js';"],
    ['src/agent-result.ts', "import { emptyDigest } from './core/text-digest.js';"],
    ['src/ports.ts', "import type { Analysis } from './core/response-analyzer.js';"],
    ['src/state/probe.ts', "import type { LoopStorePort } from '../ports.js';"],
    ['src/state/probe.ts', "import { FIELD_BY_NAME } from '../config/keys.js';"],
    ['src/infra/probe.ts', "import { ralphPaths } from '../state/paths.js';"],
    ['src/ui/probe.ts', "import type { MonitorSnapshot } from '../state/monitor-snapshot.js';"],
    ['src/config/probe.ts', "import { PROJECT_FILES } from '../core/project-layout.js';"],
    ['src/backends/probe.ts', "import { BACKEND_NAMES } from './agents.js';"],
    ['src/config/probe.ts', "import { AGENTS } from '../backends/agents.js';"],
    ['src/backends/echo/echo-agent.ts', "import { defineAgent } from '../agent-declaration.js';"],
    ['src/backends/echo/echo-agent.ts', "const m = await import('./create-echo-backend.js');"],
    // Only the same name twice is a declaration: the shared CLI runner is backend code.
    ['src/backends/cli-agent/cli-agent.ts', "import { runAgentProcess } from '../agent-process.js';"],
    ['src/checkpoints/probe.ts', "import { git } from '../infra/git.js';"],
    ['src/features/probe.ts', "import { runGateAttempt } from '../engine/gate-attempt.js';"],
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

  it('a file in a folder the table does not know is reported, whatever it imports', () => {
    const found = problems('src/newfolder/probe.ts', "import { isRecord } from '../core/guards.js';");
    expect(found).toEqual([expect.stringContaining('src/newfolder/probe.ts is in no layer')]);
  });
});
