import { readFileSync } from 'node:fs';
import { errorMessage, ExitCode } from '../../errors.js';
import { callTool, findTool, TOOLS } from '../../features/agent-tools/mcp/tool-catalog.js';
import { cleanStaleWorkspaces } from '../../features/agent-tools/test/stale-cleanup.js';
import { badInput, isToolError, ToolError } from '../../features/agent-tools/test/tool-error.js';
import type { ToolContext } from '../../features/agent-tools/test/tool-home.js';
import type { TestCommandArgs } from '../agent-tool-args.js';
import { createDefaultDeps } from '../deps.js';

/**
 * `ralph test <tool> [--input FILE|-] [flags]`: one tool call from a shell.
 * Prints exactly one JSON document on stdout: the tool's result, or (thrown
 * as a ToolError, which runMain prints) `{"error": {...}}`, with messages on
 * stderr. Exit 0 when the tool worked (a failed assertion included, unless
 * --strict), 1 when it could not do its job, 2 when the input was wrong.
 */

const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

function readStdin(): string {
  return readFileSync(0, 'utf8');
}

/** The tool's parameters: the --input object with the flags on top. */
export function readInput(
  args: TestCommandArgs,
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
  stdin: () => string = readStdin,
): Record<string, unknown> {
  let base: Record<string, unknown> = {};
  if (args.input !== undefined) {
    let text: string;
    try {
      text = args.input === '-' ? stdin() : read(args.input);
    } catch (error) {
      throw badInput(`cannot read --input ${args.input}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw badInput(`--input ${args.input} is not valid JSON: ${errorMessage(error)}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw badInput(`--input ${args.input} must hold one JSON object of tool parameters`);
    base = value as Record<string, unknown>;
  }
  return { ...base, ...args.params };
}

export async function runTestCommand(args: TestCommandArgs, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { runner, clock } = createDefaultDeps();
  const ctx: ToolContext = {
    env,
    cwd,
    now: () => clock.now(),
    runner,
    warn: (message) => process.stderr.write(`Warning: ${message}\n`),
  };
  try {
    const tool = findTool(args.tool);
    if (!tool) throw badInput(`unknown tool "${args.tool}"; tools: ${TOOLS.map((t) => t.name).join(', ')}`, { available_tools: TOOLS.map((t) => t.name) });
    const input = readInput(args);
    await cleanStaleWorkspaces(ctx);
    const result = await callTool(tool, input, ctx);
    printJson(result);
    if (args.strict && tool.name === 'test_assert' && 'failed_count' in result && typeof result.failed_count === 'number' && result.failed_count > 0) {
      process.stderr.write(`${result.failed_count} assertion(s) failed (--strict)\n`);
      return ExitCode.RuntimeError;
    }
    return ExitCode.Completed;
  } catch (error) {
    if (isToolError(error)) throw error;
    // Anything else is a bug; the answer is still one tool error document on stdout.
    if (error instanceof Error && error.stack && env['RALPH_DEBUG']) process.stderr.write(`${error.stack}\n`);
    throw new ToolError('run_failed', `unexpected error: ${errorMessage(error)}`, {}, 'This is a bug in Ralph; RALPH_DEBUG=1 shows where it happened.');
  }
}
