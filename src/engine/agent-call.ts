import { isRecord } from '../core/guards.js';
import { buildLoopContext } from '../core/loop-context.js';
import { formatRollbackNotice } from '../core/rollback-notice.js';
import { plainEvent } from '../core/text-digest.js';
import type { AgentRun } from '../ports.js';
import type { LoopRun } from './loop-run.js';
import { selectSession } from './session-selection.js';

// A beat a second: the terminal's sign of life redraws on each, progress.json follows.
const HEARTBEAT_MS = 1000;

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
 * resume, runs the backend, and emits its progress and output while it runs.
 */
export async function callAgent(loopSession: LoopRun, outputLogPath: string): Promise<AgentCall> {
  const { deps, options, state: run } = loopSession;
  const { config } = options;
  const { clock, store } = deps;
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
  const session = selectSession(loopSession, config, clock.now());

  const started = clock.now();
  const live = deps.createLiveView();
  let lastLine = '';
  let currentTool: string | null = null;
  let toolUses = 0;
  const beat = (): void => loopSession.emit({ type: 'call.progress', iteration: run.loop, startedAt: started, now: clock.now(), lastLine, currentTool, toolUses });
  loopSession.emit({ type: 'call.running', iteration: run.loop, startedAt: started });
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();

  let ended: AgentRun | undefined;
  try {
    const agentRun = await deps.backend.run(
      {
        loop: run.loop,
        cwd: store.paths.project,
        prompt: options.readPrompt(),
        loopContext,
        ...(session ? { resumeSessionId: session } : {}),
        timeoutMs: config.timeoutMinutes * 60_000,
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
            loopSession.emit({ type: 'call.activity', tool });
          }
          const text = live.push(plainEvent(event));
          if (text) {
            loopSession.emit({ type: 'call.output', text });
            const lines = text.split('\n').filter((l) => l.trim());
            if (lines.length > 0) lastLine = lines[lines.length - 1] as string;
            loopSession.emit({ type: 'call.activity', lastLine });
          }
        },
      },
      deps.interrupt,
    );
    ended = agentRun;
    return { run: agentRun, outputLogPath, resumed: session !== undefined };
  } finally {
    clearInterval(heartbeat);
    loopSession.emit({ type: 'call.end', iteration: run.loop, ...(ended ? { run: ended } : {}) });
  }
}

function describeTask(task: { text: string; criteria: string[] }): string {
  const lines = [`TASK: ${task.text}`];
  if (task.criteria.length > 0) lines.push('The result must also meet these requirements:', ...task.criteria.map((c) => `- ${c}`));
  return lines.join('\n');
}
