import type { AgentProgress, AgentResult } from '../agent-result.js';
import type { FixPlanSummary } from '../core/fix-plan.js';
import { buildLoopContext } from '../core/loop-context.js';
import { formatRollbackNotice } from '../core/rollback-notice.js';
import { chooseAgentSession } from './agent-session-choice.js';
import type { LoopRun } from './loop-run.js';

// A beat a second: the terminal's sign of life redraws on each, progress.json follows.
const HEARTBEAT_MS = 1000;

export interface AgentCall {
  run: AgentResult;
  outputLogPath: string;
  resumed: boolean;
}

/** Display name of a tool call, for progress.json. */
function describeToolUse(event: Extract<AgentProgress, { kind: 'tool_use' }>): string {
  return event.argument === undefined ? event.tool : `${event.tool}: ${event.argument.split('\n', 1)[0]?.slice(0, 60)}`;
}

/** Whether a UTF-16 unit is white space as String.prototype.trim sees it. */
function isBlank(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return /\s/.test(String.fromCharCode(c));
}

/**
 * The last line of `text` with more than spaces on it: the line holding its last character
 * that is not a space. This runs on every piece of --live output, so no line is copied, and
 * line ends are found forwards: a search forwards skips along the text many times faster
 * than one backwards, and most pieces hold one line.
 */
function lastNonBlankLine(text: string): string | undefined {
  let last = text.length - 1;
  while (last >= 0 && isBlank(text.charCodeAt(last))) last -= 1;
  if (last < 0) return undefined;
  let start = 0;
  let newline = text.indexOf('\n');
  while (newline !== -1 && newline < last) {
    start = newline + 1;
    newline = text.indexOf('\n', start);
  }
  return text.slice(start, newline === -1 ? text.length : newline);
}

/** A session id safe to publish in status files. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * One agent call: builds the prompt and loop context (from `plan`, fix_plan.md as the
 * iteration found it), picks the session to resume, runs the backend, and emits its
 * progress and output while it runs.
 */
export async function callAgent(loopSession: LoopRun, outputLogPath: string, plan: FixPlanSummary | undefined): Promise<AgentCall> {
  const { deps, options, state: run } = loopSession;
  const { config } = options;
  const { clock, store } = deps;
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
  const session = chooseAgentSession(loopSession, config, clock.now());

  const started = clock.now();
  const live = deps.createLiveView();
  let lastLine = '';
  let currentTool: string | null = null;
  let toolUses = 0;
  const beat = (): void =>
    loopSession.emit({ type: 'call.progress', iteration: run.loop, startedAt: started, now: clock.now(), lastLine, currentTool, toolUses });
  loopSession.emit({ type: 'call.running', iteration: run.loop, startedAt: started });
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();

  let ended: AgentResult | undefined;
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
        onRefusal: (refusal) => loopSession.emit({ type: 'sandbox.refused', iteration: run.loop, refusal }),
        onProgress: (event) => {
          // Watchers see the session while the first call still runs, not only after it.
          if (event.kind === 'session_started' && SESSION_ID.test(event.sessionId) && event.sessionId !== run.sessionId) {
            run.sessionId = event.sessionId;
            loopSession.publish();
          }
          if (event.kind === 'tool_use') {
            const tool = describeToolUse(event);
            currentTool = tool;
            toolUses += 1;
            loopSession.emit({ type: 'call.activity', tool });
          }
          const text = live.push(event);
          if (text) {
            loopSession.emit({ type: 'call.output', text });
            lastLine = lastNonBlankLine(text) ?? lastLine;
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
    const rest = live.end?.() ?? '';
    if (rest) loopSession.emit({ type: 'call.output', text: rest });
    loopSession.emit({ type: 'call.end', iteration: run.loop, ...(ended ? { run: ended } : {}) });
  }
}

function describeTask(task: { text: string; criteria: string[] }): string {
  const lines = [`TASK: ${task.text}`];
  if (task.criteria.length > 0) lines.push('The result must also meet these requirements:', ...task.criteria.map((c) => `- ${c}`));
  return lines.join('\n');
}
