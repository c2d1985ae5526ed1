import * as z from 'zod';
import { backendNamesFirst, describeBackendChoices } from '../../../backends/registry.js';
import { WORKSPACE_ID_PATTERN } from './workspace.js';

/**
 * Input schemas of the eight test tools, shared
 * by `ralph test` and `ralph mcp`: the MCP server publishes them as JSON
 * Schema and rejects bad arguments with their messages; the CLI parses its
 * --input with the same schemas. Objects are strict, so a misspelt
 * parameter is an error instead of being ignored.
 */

const workspaceId = z
  .string()
  .regex(WORKSPACE_ID_PATTERN, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .describe('Identifier of the test workspace (its folder is ralph-test-<id> in the private test tools folder)');
const count = z.number().int().min(0);
const relativePath = z.string().min(1).describe('Path relative to the workspace (no "..", not absolute)');
const regex = z.string().describe('Regular expression (JavaScript syntax, multiline: ^ and $ match at line ends)');
const topic = z.string().min(1).describe('Session event name, glob allowed: "agent.result", "verify.*", "*"');

const bounds = { min: count.optional(), max: count.optional(), exact: count.optional() };
const hasBound = (v: { min?: number | undefined; max?: number | undefined; exact?: number | undefined }): boolean =>
  v.min !== undefined || v.max !== undefined || v.exact !== undefined;
const NEEDS_BOUND = { message: 'give at least one of min, max, exact' };

export const assertionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('exit_code'), expected: z.number().int().describe('Expected exit code of ralph') }),
  z.strictObject({
    type: z.literal('termination_reason'),
    expected: z
      .string()
      .min(1)
      .describe("Ralph's exit reason (max_loops, plan_complete, max_runtime, …); MaxIterations, CompletionPromise and MaxRuntime are understood too"),
  }),
  z.strictObject({ type: z.literal('iterations'), ...bounds }).refine(hasBound, NEEDS_BOUND),
  z.strictObject({ type: z.literal('file_exists'), path: relativePath }),
  z.strictObject({ type: z.literal('file_contains'), path: relativePath, pattern: regex }),
  z.strictObject({ type: z.literal('file_not_contains'), path: relativePath, pattern: regex }),
  z.strictObject({ type: z.literal('event_occurred'), topic, payload_pattern: regex.optional() }),
  z.strictObject({
    type: z.literal('event_sequence'),
    topics: z.array(topic).min(1).describe('Events that must occur in this order (other events may come between)'),
  }),
  z.strictObject({ type: z.literal('event_count'), topic, ...bounds }).refine(hasBound, NEEDS_BOUND),
  z.strictObject({ type: z.literal('scratchpad_contains'), pattern: regex }),
  z.strictObject({ type: z.literal('no_event'), topic }),
  z.strictObject({ type: z.literal('duration'), max_secs: z.number().min(0).describe('Longest acceptable run time in seconds') }),
]);

const configValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.record(z.string(), z.string())]);

export const mockResponseSchema = z
  .strictObject({
    output: z.string().describe("The mock agent's answer (JSON is read as what the Claude CLI printed)"),
    exit_code: count.optional().describe('Exit code of the mock agent (default 0)'),
    delay_ms: count.optional().describe('Delay before the response (to test timeouts)'),
    trigger_pattern: z.string().optional().describe('Use this response only when the prompt matches this regex'),
    hat: z.string().optional().describe('Accepted and ignored: Ralph has one agent role'),
    files: z.record(z.string(), z.string().nullable()).optional().describe('Files the mock agent writes (path → content) or deletes (null)'),
    check_tasks: count.optional().describe('Tick this many open tasks in .ralph/fix_plan.md'),
    commit: z.string().optional().describe('Commit everything with this message'),
    raw: z.boolean().optional().describe('Read output as what the Claude CLI printed, even when it is not JSON'),
    cost_usd: z.number().min(0).optional(),
    cost_estimated: z.boolean().optional().describe('The cost stands for an estimate from tokens and list prices, as agents that report no cost give'),
    input_tokens: count.optional(),
    output_tokens: count.optional(),
    session_id: z.string().optional(),
  })
  .describe('One scripted agent response');

const envMap = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string());
const patterns = z.array(z.string().min(1)).describe('Globs over workspace paths: * within a folder, ** across folders, *.md = any .md file');

export const toolSchemas = {
  test_setup: z.strictObject({
    workspace_id: workspaceId,
    fixtures: z.record(z.string(), z.string()).optional().describe('Files to create (path → content)'),
    config: z.record(z.string(), configValue).optional().describe('.ralphrc overrides, e.g. {"VERIFY_COMMAND": "npm test", "CB_NO_PROGRESS_THRESHOLD": 5}'),
    scratchpad: z.string().optional().describe("Initial .ralph/fix_plan.md, the agent's plan"),
  }),
  test_run: z.strictObject({
    workspace_id: workspaceId,
    task: z.string().min(1).describe('The task, written at the top of .ralph/PROMPT.md'),
    backend: z.enum(backendNamesFirst('mock')).optional().describe(describeBackendChoices('mock')),
    max_iterations: z.number().int().min(1).max(10_000).optional().describe('Maximum loop iterations (default 5)'),
    max_runtime_secs: z.number().int().min(1).max(86_400).optional().describe('Wall-clock limit in seconds; ralph is stopped after it (default 300)'),
    env: envMap.optional().describe('Environment variables for ralph (credentials for a real backend go here)'),
    mock_responses: z.array(mockResponseSchema).optional().describe('Scripted responses, as test_mock_backend'),
  }),
  test_assert: z.strictObject({
    workspace_id: workspaceId,
    assertions: z.array(assertionSchema).min(1).describe('Every assertion is evaluated; the result lists each'),
  }),
  test_inspect: z.strictObject({
    workspace_id: workspaceId,
    filter: z
      .strictObject({
        event_types: z.array(z.string()).optional().describe('Exact event names'),
        topics: z.array(z.string()).optional().describe('Event name globs ("verify.*")'),
        after_iteration: count.optional(),
        before_iteration: count.optional(),
        payload_pattern: z.string().optional().describe('Regex over the JSON of the event data'),
      })
      .optional(),
    limit: count.optional().describe('Most records returned with format json (default 100)'),
    format: z.enum(['json', 'summary', 'timeline']).optional(),
  }),
  test_cleanup: z.strictObject({
    workspace_id: workspaceId,
    preserve_session: z.boolean().optional().describe('Keep .ralph/logs/session.jsonl (test_inspect can still read it)'),
  }),
  test_mock_backend: z.strictObject({
    workspace_id: workspaceId,
    responses: z.array(mockResponseSchema).min(1).describe('Consumed in order; a trigger_pattern makes a response wait for a matching prompt'),
  }),
  test_snapshot: z.strictObject({
    workspace_id: workspaceId,
    include_patterns: patterns.optional(),
    exclude_patterns: patterns.optional(),
  }),
  test_diff: z.strictObject({
    workspace_id: workspaceId,
    baseline: z.string().min(1).describe('"initial" (the state test_setup left) or a snapshot id'),
    compare_to: z.string().min(1).optional().describe('A snapshot id or "current" (default)'),
  }),
} as const;

export type TestToolName = keyof typeof toolSchemas;
