import { isRecord } from '../core/guards.js';
import { buildLoopContext } from '../core/loop-context.js';
import { formatRollbackNotice } from '../core/rollback-notice.js';
import { plainEvent } from '../core/text-digest.js';
import { localTimestamp } from '../core/time-format.js';
import type { AgentRun } from '../ports.js';
import type { LoopSession } from './loop-session.js';
import { selectSession } from './session-selection.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
// The terminal's sign of life redraws every beat; progress.json (read by the monitor every
// 2 s) is written every other beat, so a long call costs no more writes than it needs.
const HEARTBEAT_MS = 1000;
const PROGRESS_FILE_EVERY = 2;

export interface AgentCall {
  run: AgentRun;
  outputLogPath: string;
  resumed: boolean;
}

/** Display name of a tool call from a stream event, for progress.json. */
function toolFromEvent(event: unknown): string | undefined {
  if (!isRecord(event) || event['type'] !== 'assistant' || !isRecord(event['message'])) return undefined;
  const content = event['message']['content'];
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (isRecord(block) && block['type'] === 'tool_use' && typeof block['name'] === 'string') {
      const input = isRecord(block['input']) ? block['input'] : {};
      const arg = ['command', 'file_path', 'pattern', 'description'].map((k) => input[k]).find((v) => typeof v === 'string');
      return typeof arg === 'string' ? `${block['name']}: ${arg.split('\n', 1)[0]?.slice(0, 60)}` : block['name'];
    }
  }
  return undefined;
}

/** The session id an init event announces at the start of a stream. */
function sessionFromEvent(event: unknown): string | undefined {
  if (!isRecord(event) || event['type'] !== 'system' || event['subtype'] !== 'init') return undefined;
  const id = event['session_id'];
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : undefined;
}

/**
 * One agent call: builds the prompt and loop context, picks the session to
 * resume, runs the backend, and keeps progress.json and live.log current while
 * it runs.
 */
export async function callAgent(loopSession: LoopSession, outputLogPath: string): Promise<AgentCall> {
  const { deps, options, run } = loopSession;
  const { config } = options;
  const { clock, store, logger } = deps;
  const plan = store.readFixPlan(config.optionalSections);
  const previous = run.lastAnalysis;
  const rolledBack = deps.gate?.lastRollback();
  const loopContext = buildLoopContext({
    loop: run.loop,
    ...(plan ? { remainingTasks: plan.blockingUnchecked + plan.optionalUnchecked } : {}),
    circuitState: run.circuit.state,
    ...(previous ? { previousSummary: previous.workSummary, askedQuestions: previous.askingQuestions } : {}),
    ...(previous?.isStuck ? { repeatedErrors: previous.errorLines } : {}),
    ...(options.task ? { task: describeTask(options.task) } : {}),
    ...(deps.gate?.feedback() ? { verifyFeedback: deps.gate.feedback() as string } : {}),
    ...(rolledBack ? { rollbackNotice: formatRollbackNotice(rolledBack) } : {}),
  });
  const session = selectSession(deps, config, clock.now());

  const started = clock.now();
  const live = deps.createLiveView();
  // With --live the output itself shows the call is alive.
  const progress = config.live ? undefined : deps.createCallProgress?.(started);
  let lastLine = '';
  let currentTool: string | null = null;
  let toolUses = 0;
  let tick = 0;
  const writeProgress = (status: string): void => {
    store.writeProgress({
      status,
      indicator: SPINNER[tick % SPINNER.length],
      elapsed_seconds: Math.round((clock.now() - started) / 1000),
      last_output: lastLine.slice(0, 80),
      timestamp: localTimestamp(clock.now()),
      loop: run.loop,
      current_tool: currentTool,
      tool_uses: toolUses,
      started_at: new Date(started).toISOString(),
    });
  };
  store.resetLiveLog(`\n\n=== Loop #${run.loop} - ${localTimestamp(started)} ===`);
  writeProgress('executing');
  progress?.tick(started);
  let beats = 0;
  const heartbeat = setInterval(() => {
    beats += 1;
    progress?.tick(clock.now());
    if (beats % PROGRESS_FILE_EVERY !== 0) return;
    tick += 1;
    writeProgress('executing');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  try {
    const agentRun = await deps.backend.run(
      {
        loop: run.loop,
        cwd: store.paths.project,
        prompt: options.readPrompt(),
        loopContext,
        ...(session ? { resumeSessionId: session } : {}),
        timeoutMs: options.agentTimeoutMs ?? config.timeoutMinutes * 60_000,
        outputLogPath,
        live: config.live,
        onEvent: (event) => {
          // Watchers see the session while the first call still runs, not only after it.
          const announced = sessionFromEvent(event);
          if (announced !== undefined && announced !== run.sessionId) {
            run.sessionId = announced;
            loopSession.publish();
          }
          const tool = toolFromEvent(event);
          if (tool) {
            currentTool = tool;
            toolUses += 1;
            progress?.update({ tool });
          }
          const text = live.push(plainEvent(event));
          if (text) {
            store.appendLiveLog(text);
            if (config.live) deps.ui.write(text);
            const lines = text.split('\n').filter((l) => l.trim());
            if (lines.length > 0) lastLine = lines[lines.length - 1] as string;
            progress?.update({ lastLine });
          }
        },
      },
      deps.interrupt,
    );
    logger.debug(`Agent call took ${agentRun.durationMs} ms (${agentRun.end}, exit ${agentRun.exitCode ?? 'none'})`);
    return { run: agentRun, outputLogPath, resumed: session !== undefined };
  } finally {
    clearInterval(heartbeat);
    store.endLiveLog();
    progress?.stop();
  }
}

function describeTask(task: { text: string; criteria: string[] }): string {
  const lines = [`TASK: ${task.text}`];
  if (task.criteria.length > 0) lines.push('The result must also meet these requirements:', ...task.criteria.map((c) => `- ${c}`));
  return lines.join('\n');
}
