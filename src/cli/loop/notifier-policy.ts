import { isCompletionReason } from '../../core/exit-reasons.js';
import type { LoopEvent, LoopStop } from '../../engine/loop-events.js';
import type { Notifier, NotifyEvent } from '../../ports.js';

/** The notification a stop deserves: only the ones that need a person. */
function stopNotification(e: LoopStop): [NotifyEvent, string] | undefined {
  const { reason, detail } = e;
  if (isCompletionReason(reason)) return ['completed', `Project completed! Exit reason: ${reason}`];
  if (reason === 'permission_denied') return ['error', `Ralph halted: permission denied (${detail})`];
  if (reason === 'circuit_breaker_open' || reason === 'safety_circuit_breaker') return ['circuit_open', `Circuit breaker opened: ${detail}`];
  if (reason === 'verify_aborted') return ['verify_escalation', `Verify gate aborted: ${detail}`];
  if (reason === 'integrity_failure' || reason === 'agent_failure' || reason === 'checkpoint_failed' || reason === 'rollback_failed' || reason === 'lock_lost')
    return ['error', `Ralph stopped: ${detail}`];
  if (reason === 'usage_limit' || reason === 'api_rate_limit' || reason === 'quota_reserved') return ['usage_limit', `Ralph stopped: ${detail}`];
  return undefined;
}

/** Which loop events reach the desktop (`--notify`): never one per iteration. */
export function createNotifierPolicy(notifier: Notifier): (event: LoopEvent) => void {
  const send = (kind: NotifyEvent, message: string): void => {
    void notifier.notify(kind, message);
  };
  return (e) => {
    if (e.type === 'limit.usage') send('usage_limit', `The agent's usage limit was reached; Ralph waits until ${new Date(e.until).toLocaleString()}`);
    else if (e.type === 'verify.escalated' && !e.fromEarlierRun)
      send('verify_escalation', `'${e.command}' failed ${e.attempts}/${e.maxAttempts} times; Ralph needs a decision`);
    else if (e.type === 'api_retry.gave_up') send('error', 'Ralph stopped: the API kept refusing requests');
    else if (e.type === 'loop.stop') {
      const n = stopNotification(e);
      if (n) send(...n);
    }
  };
}
