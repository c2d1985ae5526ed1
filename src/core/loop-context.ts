/**
 * The text Ralph adds to the agent's system prompt each iteration:
 * loop number, remaining tasks, circuit state, the previous summary, the "do
 * not ask questions" note — and ours: the stuck-error warning and the last
 * verify-gate failure in the seed's feedback format, and the news that the
 * previous attempt was rolled back.
 */
export interface LoopContextInput {
  loop: number;
  remainingTasks?: number;
  circuitState?: string;
  previousSummary?: string;
  askedQuestions?: boolean;
  repeatedErrors?: readonly string[];
  /** Task-mode instructions (task text, quality criteria). */
  task?: string;
  /** A bounce-back or escalation message from the verify gate. */
  verifyFeedback?: string;
  /** Said when the previous attempt was undone (see rollback-notice.ts). */
  rollbackNotice?: string;
}

export const BASE_CONTEXT_LIMIT = 500;

const QUESTIONS_NOTE =
  'IMPORTANT: You asked questions in the previous loop. This is a headless automation loop with no human to answer. Do NOT ask questions. Choose the most conservative/safe default and proceed autonomously. ';

export function buildLoopContext(input: LoopContextInput): string {
  let base = `Loop #${input.loop}. `;
  if (input.remainingTasks !== undefined) base += `Remaining tasks: ${input.remainingTasks}. `;
  if (input.circuitState && input.circuitState !== 'CLOSED') base += `Circuit breaker: ${input.circuitState}. `;
  if (input.previousSummary) base += `Previous: ${input.previousSummary.slice(0, 200)} `;
  if (input.askedQuestions) base += QUESTIONS_NOTE;
  if (input.repeatedErrors && input.repeatedErrors.length > 0) {
    base += `WARNING: the same error keeps recurring: ${input.repeatedErrors.slice(0, 2).join(' | ').slice(0, 160)}. Try a different approach. `;
  }
  const parts = [base.trim().slice(0, BASE_CONTEXT_LIMIT)];
  if (input.task) parts.push(input.task.trim());
  if (input.rollbackNotice) parts.push(input.rollbackNotice.trim());
  if (input.verifyFeedback) parts.push(input.verifyFeedback.trim());
  return parts.join('\n\n');
}
