import { resolve } from 'node:path';
import * as z from 'zod';
import { buildVerifyEnv } from '../../../core/verify-env.js';
import { codeSpan, formatBounceBack, formatEscalation, formatPassed, type VerifyOutcome } from '../../../core/verify-feedback.js';
import { applyGateAction, lastResult, reconcileGate, type GateAction, type GateState } from '../../../core/verify-gate.js';
import { runGateAttempt } from '../../../engine/gate-attempt.js';
import { runVerifyCommand } from '../../../infra/verify-executor.js';
import { currentRedactors } from '../../../state/redaction.js';
import { badInput, ToolError } from '../test/tool-error.js';
import { toolPaths, type ToolContext } from '../test/tool-home.js';
import { type GateCheckpoints, gitCheckpoints } from './verify-checkpoints.js';
import { defaultGateId, withGate, type StoredGate } from './verify-gate-store.js';
import { requireDirectory } from './require-directory.js';

/**
 * The `verify` tool: the loop's shell verification gate as chat
 * middleware. The host model does the work and calls `verify`; Ralph runs the
 * command (sh -c, own process group, secret-free environment, output tail)
 * and keeps the attempt count per gate id across calls. A failure below the
 * limit returns the bounce-back text, the failure that reaches it the
 * escalation; after that the gate only answers `gate_action` retry (reset and
 * run again), skip (stop verifying) or abort (stop). No server-side looping:
 * the client decides when to call again.
 *
 * Checkpoints: with `checkpoint: true` the first call of a cycle (a new gate,
 * or the first call after a pass) records the work tree before running the
 * command — call verify once before editing to make the untouched tree the
 * baseline. A pass drops it, as do skip and abort; a failure with
 * `rollback: true` restores it (the failed attempt stays reachable under
 * refs/ralph/attempts/) and keeps it, so retry starts from the same baseline.
 */

export const verifySchema = z
  .strictObject({
    command: z.string().min(1).optional().describe('Shell command that must exit 0, e.g. "npm test" (required the first time a gate is used)'),
    gate_id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/, 'must be 1-128 letters, digits, ".", "_", ":" or "-"')
      .optional()
      .describe('Names the gate whose attempts are counted (default: one gate per directory and command)'),
    gate_action: z
      .enum(['retry', 'skip', 'abort'])
      .optional()
      .describe('Answer to an escalated gate: retry (reset attempts and run again), skip (stop verifying), abort (stop)'),
    max: z.number().int().min(1).max(100).optional().describe('Failed attempts before escalation (default 5)'),
    timeout: z.number().int().min(1).max(3600).optional().describe('Seconds before the command is killed (default 300)'),
    working_dir: z.string().min(1).optional().describe("Directory to run in (relative to the server's directory; default: that directory)"),
    checkpoint: z.boolean().optional().describe('Record the work tree (git) at the start of each cycle'),
    rollback: z.boolean().optional().describe('Restore that checkpoint when verification fails'),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string())
      .optional()
      .describe('Extra environment variables (everything secret-looking from the server is withheld)'),
  })
  .refine((v) => v.command !== undefined || v.gate_id !== undefined, { message: 'give command (and optionally gate_id), or gate_id with gate_action' });

export type VerifyInput = z.infer<typeof verifySchema>;

export interface VerifyToolResult {
  success: boolean;
  verification: {
    command: string;
    attempts: number;
    passed: boolean;
    lastResult: { exitCode: number | null; stdout: string; stderr: string; durationMs: number; timedOut: boolean } | null;
    gateId: string;
    maxAttempts: number;
    status: GateState['status'];
    workingDir: string;
    checkpoint?: string;
    rolledBack?: { checkpoint: string; attemptRef: string | null };
  };
  content: string;
  warnings?: string[];
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_TIMEOUT_SECS = 300;

const NEXT_STEP = (gateId: string): string => `Fix the cause of this failure, then call \`verify\` again with gate_id "${gateId}"; exit code 0 passes.`;
const ACTION_PROMPT = (gateId: string): string => `Call \`verify\` with gate_id "${gateId}" and \`gate_action\`:`;

function summary(result: VerifyOutcome | undefined): VerifyToolResult['verification']['lastResult'] {
  if (!result) return null;
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, durationMs: result.durationMs, timedOut: result.timedOut };
}

interface Settings {
  gateId: string;
  command: string;
  cwd: string;
  max: number;
  timeoutSecs: number;
  checkpoint: boolean;
  rollback: boolean;
}

function settingsFor(input: VerifyInput, ctx: ToolContext, stored: StoredGate | undefined, gateId: string): Settings {
  const command = input.command ?? stored?.gate.command;
  if (command === undefined) throw badInput(`verify gate "${gateId}" is unknown: give the command to verify`, { gate_id: gateId });
  const cwd = input.working_dir !== undefined ? resolve(ctx.cwd, input.working_dir) : (stored?.cwd ?? resolve(ctx.cwd));
  requireDirectory(cwd, 'working_dir');
  return {
    gateId,
    command,
    cwd,
    max: input.max ?? stored?.gate.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    timeoutSecs: input.timeout ?? stored?.timeoutSecs ?? DEFAULT_TIMEOUT_SECS,
    checkpoint: input.checkpoint ?? stored?.checkpoint ?? false,
    rollback: input.rollback ?? stored?.rollback ?? false,
  };
}

function respond(
  s: Settings,
  gate: GateState,
  passed: boolean,
  attempts: number,
  content: string,
  extra: Partial<VerifyToolResult['verification']> = {},
  warnings: string[] = [],
): VerifyToolResult {
  return {
    success: passed || gate.status === 'skipped',
    verification: {
      command: s.command,
      attempts,
      passed,
      lastResult: summary(lastResult(gate)),
      gateId: s.gateId,
      maxAttempts: gate.maxAttempts,
      status: gate.status,
      workingDir: s.cwd,
      ...extra,
    },
    content,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The answer for a gate that does not run now: skipped, aborted or waiting for gate_action. */
function answerWithoutRunning(s: Settings, gate: GateState, action: GateAction | undefined): string | undefined {
  const last = lastResult(gate);
  if (action === 'skip')
    return `Verification skipped for ${codeSpan(s.command)}: the gate no longer blocks. Call \`verify\` with gate_action "retry" to verify again.`;
  if (action === 'abort')
    return `Verification aborted for ${codeSpan(s.command)} after ${gate.attempt}/${gate.maxAttempts} failed attempts. Stop working on this task; gate_action "retry" starts the gate over.`;
  if (gate.status === 'skipped')
    return `This gate was skipped; nothing was run. Call \`verify\` with gate_action "retry" to verify ${codeSpan(s.command)} again.`;
  if (gate.status === 'aborted') return `This gate was aborted; nothing was run. Call \`verify\` with gate_action "retry" to start it over.`;
  if (gate.status === 'escalated' && last)
    return `${formatEscalation(last, gate.attempt, gate.maxAttempts, { gateActionPrompt: ACTION_PROMPT(s.gateId) })}\n\nThe attempts are used up: nothing was run. Answer with gate_action first.`;
  return undefined;
}

export async function runVerifyTool(input: VerifyInput, ctx: ToolContext): Promise<VerifyToolResult> {
  const paths = toolPaths(ctx.env);
  const dirForId = input.working_dir !== undefined ? resolve(ctx.cwd, input.working_dir) : resolve(ctx.cwd);
  const gateId = input.gate_id ?? defaultGateId(dirForId, input.command ?? '');
  return withGate(paths, gateId, ctx.warn, async ({ stored, save }) => {
    const s = settingsFor(input, ctx, stored, gateId);
    const warnings: string[] = [];
    const checkpoints: GateCheckpoints = gitCheckpoints(s.cwd, ctx, warnings);
    let gate = reconcileGate(stored?.gate, s.command, s.max, gateId);
    let baseline = stored && gate.command === stored.gate.command ? stored.baseline : null;
    if (stored?.baseline && !baseline) await checkpoints.drop(stored.baseline);
    const persist = (): void =>
      save({ version: 1, gate, cwd: s.cwd, checkpoint: s.checkpoint, rollback: s.rollback, timeoutSecs: s.timeoutSecs, baseline, updatedAt: ctx.now() });

    const action = input.gate_action;
    if (action) gate = applyGateAction(gate, action);
    const early = answerWithoutRunning(s, gate, action);
    if (early !== undefined) {
      if ((action === 'skip' || action === 'abort') && baseline) {
        await checkpoints.drop(baseline);
        baseline = null;
      }
      persist();
      return respond(s, gate, false, gate.attempt, early, {}, warnings);
    }

    if (s.checkpoint && !baseline) baseline = await checkpoints.create(s.gateId, gate.attempt + 1);
    const checkpoint = baseline;
    const attempt = await runGateAttempt({
      gate,
      now: ctx.now,
      run: async () => {
        const result = await runVerifyCommand({
          command: s.command,
          cwd: s.cwd,
          timeoutMs: s.timeoutSecs * 1000,
          env: buildVerifyEnv(ctx.env, input.env ?? {}),
          redactor: currentRedactors().text,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
        return result.cancelled ? undefined : result;
      },
      // A rolled-back checkpoint stays the baseline: retry starts from the same tree.
      ...(checkpoint
        ? {
            checkpoint: {
              keepPassed: false,
              rollbackOnFail: s.rollback,
              dropAfterRollback: false,
              drop: () => checkpoints.drop(checkpoint),
              rollback: async (failed: GateState) => (await checkpoints.rollback(checkpoint, `verify gate ${gateId} attempt ${failed.attempt}`)) ?? undefined,
            },
          }
        : {}),
    });
    if (attempt.kind === 'cancelled') {
      persist();
      throw new ToolError('cancelled', `verify was cancelled; ${codeSpan(s.command)} was stopped and the attempt not counted`, { gate_id: gateId });
    }
    const { result } = attempt;
    const before = gate.attempt;
    gate = attempt.state;
    const extra: Partial<VerifyToolResult['verification']> = baseline ? { checkpoint: baseline.id } : {};
    let content: string;
    if (attempt.decision === 'passed') {
      baseline = null;
      content = `${formatPassed(result, before + 1)}\n\nVerification cleared.`;
    } else {
      let restored = '';
      if (attempt.rolledBack && baseline) {
        extra.rolledBack = { checkpoint: baseline.id, attemptRef: attempt.rolledBack.attemptRef };
        restored = `\n\nThe work tree was rolled back to checkpoint ${baseline.id}${attempt.rolledBack.attemptRef ? `; the failed attempt is kept at ${attempt.rolledBack.attemptRef}` : ''}.`;
      } else if (s.rollback && !baseline) warnings.push('rollback needs a checkpoint (checkpoint: true in a git repository); nothing was rolled back');
      content =
        attempt.decision === 'escalate'
          ? formatEscalation(result, gate.attempt, gate.maxAttempts, { gateActionPrompt: ACTION_PROMPT(gateId) }) + restored
          : formatBounceBack(result, gate.attempt, gate.maxAttempts, { nextStep: NEXT_STEP(gateId) }) + restored;
    }
    persist();
    const passed = attempt.decision === 'passed';
    return respond(s, gate, passed, passed ? before + 1 : gate.attempt, content, extra, warnings);
  });
}
