import type * as z from 'zod';
import { toolSchemas } from '../test/schemas.js';
import { testAssert } from '../test/test-assert.js';
import { testCleanup } from '../test/test-cleanup.js';
import { testDiff } from '../test/test-diff.js';
import { testInspect } from '../test/test-inspect.js';
import { testMockBackend } from '../test/test-mock-backend.js';
import { testRun } from '../test/test-run.js';
import { testSetup } from '../test/test-setup.js';
import { testSnapshot } from '../test/test-snapshot.js';
import { badInput } from '../test/tool-error.js';
import type { ToolContext } from '../test/tool-home.js';
import { runStatusTool, statusSchema } from './status-tool.js';
import { runVerifyTool, verifySchema } from './verify-tool.js';

/**
 * Every agent-facing tool once: name, description, input schema and the
 * function behind it. `ralph mcp` registers these with the MCP SDK; `ralph
 * test <tool>` looks them up by name. Both faces parse input with the same
 * schema, so they accept and refuse exactly the same arguments.
 */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  schema: z.ZodType;
  /** Runs the tool on input that `schema` has already parsed. */
  run(input: unknown, ctx: ToolContext): Promise<object>;
}

function defineTool<S extends z.ZodType>(spec: {
  name: string;
  title: string;
  description: string;
  schema: S;
  run(input: z.output<S>, ctx: ToolContext): Promise<object> | object;
}): ToolSpec {
  return { ...spec, run: async (input, ctx) => spec.run(input as z.output<S>, ctx) };
}

export const TOOLS: readonly ToolSpec[] = [
  defineTool({
    name: 'test_setup',
    title: 'Create a test workspace',
    description:
      'Creates an isolated Ralph project (a git repository under the system temp dir) with optional fixture files, .ralphrc config overrides and an initial plan (.ralph/fix_plan.md), and registers it under workspace_id.',
    schema: toolSchemas.test_setup,
    run: testSetup,
  }),
  defineTool({
    name: 'test_mock_backend',
    title: 'Script the mock agent',
    description:
      'Configures the mock backend of a workspace: an ordered list of agent responses (output, exit_code, delay_ms, trigger_pattern, optional file effects). No model is called.',
    schema: toolSchemas.test_mock_backend,
    run: testMockBackend,
  }),
  defineTool({
    name: 'test_run',
    title: 'Run Ralph in a test workspace',
    description:
      'Runs the real ralph loop in the workspace (mock backend by default) with max_iterations and a max_runtime_secs kill, and returns exit code, termination reason (Ralph exit reason), iterations, elapsed time, the session file, output tails and mock responses consumed.',
    schema: toolSchemas.test_run,
    run: testRun,
  }),
  defineTool({
    name: 'test_assert',
    title: 'Assert on a test run',
    description:
      'Evaluates every assertion (exit_code, termination_reason, iterations, file_exists, file_contains, file_not_contains, event_occurred, event_sequence, event_count, scratchpad_contains, no_event, duration) against the last run, its session recording and the workspace files. A failing assertion is data, not an error.',
    schema: toolSchemas.test_assert,
    run: testAssert,
  }),
  defineTool({
    name: 'test_inspect',
    title: 'Inspect the session recording',
    description:
      'Reads .ralph/logs/session.jsonl of a workspace: records filtered by event type, topic glob, iteration window or payload regex, as json, summary or a per-iteration timeline.',
    schema: toolSchemas.test_inspect,
    run: testInspect,
  }),
  defineTool({
    name: 'test_snapshot',
    title: 'Snapshot workspace files',
    description: 'Captures the files of a workspace (include/exclude globs; Ralph runtime state left out by default) under a snapshot id for test_diff.',
    schema: toolSchemas.test_snapshot,
    run: testSnapshot,
  }),
  defineTool({
    name: 'test_diff',
    title: 'Diff workspace states',
    description:
      'Compares "initial" (the setup state) or a snapshot with another snapshot or the current files: changed, added and deleted files with line-level diffs and hunks.',
    schema: toolSchemas.test_diff,
    run: testDiff,
  }),
  defineTool({
    name: 'test_cleanup',
    title: 'Remove a test workspace',
    description:
      'Deletes the workspace and deregisters its id; with preserve_session only .ralph/logs/session.jsonl is kept (still readable with test_inspect).',
    schema: toolSchemas.test_cleanup,
    run: testCleanup,
  }),
  defineTool({
    name: 'verify',
    title: 'Verify with a shell command (Ralph gate)',
    description:
      'Runs a shell command as ground truth (exit 0 passes) and counts failed attempts per gate across calls. Below the limit a failure returns a bounce-back to fix and call again; at the limit it escalates and the gate waits for gate_action retry, skip or abort. Optional git checkpoint and rollback.',
    schema: verifySchema,
    run: runVerifyTool,
  }),
  defineTool({
    name: 'ralph_status',
    title: 'Status of a Ralph loop',
    description:
      'The loop snapshot of a project (as ralph --status --json): status, exit reason, loop count, circuit breaker, verify gate, totals, and whether a loop is running.',
    schema: statusSchema,
    run: runStatusTool,
  }),
];

export function findTool(name: string): ToolSpec | undefined {
  const wanted = name.replace(/-/g, '_');
  return TOOLS.find((t) => t.name === wanted || t.name === `test_${wanted}`);
}

/** Zod's issues as lines `path: message`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
}

/** Parses raw input with the tool's schema (a `bad_input` error listing every problem) and runs it. */
export async function callTool(tool: ToolSpec, raw: unknown, ctx: ToolContext): Promise<object> {
  const parsed = tool.schema.safeParse(raw);
  if (!parsed.success) {
    const problems = formatIssues(parsed.error.issues);
    throw badInput(`invalid input for ${tool.name}:\n  ${problems.join('\n  ')}`, { problems });
  }
  return tool.run(parsed.data, ctx);
}
