/**
 * What an iteration amounted to, in words a person reads at the end of each
 * loop and in the metrics: a call that returned is not a success when the
 * verify command failed, the work was rolled back, nothing changed, or the
 * circuit breaker opened on it.
 */
export type CallResult = 'success' | 'failed' | 'timeout' | 'timeout_productive' | 'usage_limit' | 'api_error' | 'interrupted';

export interface IterationFactsForVerdict {
  call: CallResult;
  /** The analysis saw progress (files, commits, ticked tasks, or the agent's report); undefined when not analyzed. */
  progress?: boolean;
  /** The agent claimed completion. */
  claimedDone?: boolean;
  gate?: { passed: boolean; aborted: boolean; rolledBack: boolean };
  circuitOpened: boolean;
}

export interface IterationVerdict {
  success: boolean;
  /** Short words for "Loop #N ended: …". */
  label: string;
}

const CALL_LABELS: Record<Exclude<CallResult, 'success' | 'timeout_productive'>, string> = {
  failed: 'agent error',
  timeout: 'timed out without progress',
  usage_limit: 'usage limit reached',
  api_error: 'API error, will retry',
  interrupted: 'interrupted',
};

export function decideIterationVerdict(f: IterationFactsForVerdict): IterationVerdict {
  if (f.call !== 'success' && f.call !== 'timeout_productive') {
    return { success: false, label: f.circuitOpened ? `${CALL_LABELS[f.call]}, circuit breaker opened` : CALL_LABELS[f.call] };
  }
  const parts: string[] = [];
  let success = true;
  if (f.gate && !f.gate.passed) {
    success = false;
    parts.push(f.gate.rolledBack ? 'verify failed, rolled back' : 'verify failed');
    if (f.gate.aborted) parts.push('aborted');
  } else if (f.progress === false && f.claimedDone === true) {
    parts.push('no changes, reported done');
  } else if (f.progress === false) {
    success = false;
    parts.push('no progress');
  } else {
    parts.push(f.call === 'timeout_productive' ? 'timed out with progress' : 'success');
    if (f.gate?.passed) parts.push('verify passed');
  }
  if (f.circuitOpened) {
    success = false;
    parts.push('circuit breaker opened');
  }
  return { success, label: parts.join(', ') };
}
