import type { AgentResult } from '../agent-result.js';
import { decideQuota, describeWindow, formatQuotaThreshold, mergeWindows } from '../core/quota-windows.js';
import type { LoopRun, Step } from './loop-run.js';
import { sitOut, waitEnded } from './waits.js';

/** What the run knows of the subscription windows after a call: the call's report over the earlier ones. */
export function noteWindows(s: LoopRun, agentRun: AgentResult): void {
  const before = s.state.quotaWindows;
  const after = mergeWindows(before, agentRun.rateLimitWindows, s.now);
  if (after.length === 0 && before.length === 0) return;
  s.state.quotaWindows = after;
  s.publish();
}

/**
 * After an iteration's work: a subscription window that reached --stop-at ends the run
 * (quota_reserved, exit 5); one that reached --park-at makes the loop wait for its reset before
 * the next call — the usage-limit wait, saved so Ctrl+C, `ralph --stop` and a restart treat it
 * like any other wait.
 */
export async function settleQuota(s: LoopRun): Promise<Step> {
  const { config } = s;
  if (config.parkAt === null && config.stopAt === null) return undefined;
  const verdict = decideQuota(s.state.quotaWindows, { parkAt: config.parkAt, stopAt: config.stopAt }, s.now);
  if (verdict.action === 'go') return undefined;
  const w = verdict.window;
  const name = describeWindow(w.kind);
  const when = w.resetsAt !== undefined ? new Date(w.resetsAt).toLocaleString() : undefined;
  const state = w.status === 'rejected' ? 'is used up' : w.usedPercent !== undefined ? `is ${Math.round(w.usedPercent)}% used` : 'is nearly used up';
  if (verdict.action === 'stop') {
    return {
      stop: 'quota_reserved',
      message: `the ${name} (${w.kind}) ${state} (--stop-at ${formatQuotaThreshold(config.stopAt)}); it resets ${when !== undefined ? `at ${when}` : 'at a time the agent did not say'}`,
    };
  }
  const until = w.resetsAt ?? s.now + config.usageLimitWaitMinutes * 60_000;
  const untilText = new Date(until).toLocaleString();
  if (config.maxRuntimeMinutes > 0 && until > s.state.startedAt + config.maxRuntimeMinutes * 60_000) {
    return { stop: 'max_runtime', message: `the ${name} resets at ${untilText}, after --max-runtime ends` };
  }
  const message = `Parked: the ${name} (${w.kind}) ${state} (--park-at ${formatQuotaThreshold(config.parkAt)})`;
  const end = await sitOut(s, { reason: 'quota_window', until, message }, () => s.setAction('quota_parked', 'paused', `${message}; resumes at ${untilText}`));
  // The window has reset: what the call said of it is no longer true, whether or not the next call reports it.
  if (end === 'done') s.state.quotaWindows = s.state.quotaWindows.filter((known) => known.kind !== w.kind);
  return waitEnded(end);
}
