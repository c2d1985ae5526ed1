import type { AgentResult } from '../agent-result.js';
import type { FixPlanSummary } from '../core/fix-plan.js';
import { buildLoopContext } from '../core/loop-context.js';
import { formatRollbackNotice } from '../core/rollback-notice.js';
import { reviewFindingsSection } from '../core/review/review-decision.js';
import { chooseAgentSession } from './agent-session-choice.js';
import type { LoopRun } from './loop-run.js';

// A beat a second: the terminal's sign of life redraws on each, progress.json follows.
const HEARTBEAT_MS = 1000;

export interface AgentCall {
  run: AgentResult;
  outputLogPath: string;
  resumed: boolean;
}

/** A session id safe to publish in status files. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * One agent call: builds the prompt and loop context (from `plan`, fix_plan.md as the
 * iteration found it), picks the session to resume, runs the backend, and emits what the
 * agent does (its progress facts, unrendered) and a beat a second while it runs.
 */
/** Why the heartbeat of a call stops. */
const CALL_ENDED = 'the call ended';

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
  const iteration = run.loop;
  loopSession.emit({ type: 'call.running', iteration, startedAt: started });
  // The beats come from the clock port: the engine keeps no timer of its own, and a test's clock decides when they fire.
  const beating = new AbortController();
  clock.every(HEARTBEAT_MS, beating.signal, (now) => loopSession.emit({ type: 'call.tick', iteration, startedAt: started, now }));

  let ended: AgentResult | undefined;
  try {
    const agentRun = await deps.backend.run(
      {
        loop: iteration,
        cwd: store.paths.project,
        prompt: run.reviewFindings ? `${options.readPrompt()}\n\n${reviewFindingsSection(run.reviewFindings)}` : options.readPrompt(),
        loopContext,
        ...(session ? { resumeSessionId: session } : {}),
        timeoutMs: config.timeoutMinutes * 60_000,
        outputLogPath,
        live: config.live,
        onRefusal: (refusal) => loopSession.emit({ type: 'sandbox.refused', iteration, refusal }),
        onProgress: (event) => {
          // Watchers see the session while the first call still runs, not only after it.
          if (event.kind === 'session_started' && SESSION_ID.test(event.sessionId) && event.sessionId !== run.sessionId) {
            run.sessionId = event.sessionId;
            loopSession.publish();
          }
          loopSession.emit({ type: 'call.progress', iteration, event });
        },
      },
      deps.interrupt,
    );
    ended = agentRun;
    return { run: agentRun, outputLogPath, resumed: session !== undefined };
  } finally {
    // A reason of its own: abort() without one makes a DOMException, stack trace and all, every call.
    beating.abort(CALL_ENDED);
    loopSession.emit({ type: 'call.end', iteration, ...(ended ? { run: ended } : {}) });
  }
}

function describeTask(task: { text: string; criteria: string[] }): string {
  const lines = [`TASK: ${task.text}`];
  if (task.criteria.length > 0) lines.push('The result must also meet these requirements:', ...task.criteria.map((c) => `- ${c}`));
  return lines.join('\n');
}
