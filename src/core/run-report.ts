/**
 * The machine-readable account of one run that `ralph … --report FILE`
 * writes when the loop ends: what CI (the GitHub Action) and `ralph queue
 * run` read instead of scraping the terminal. Built from the loop's exit code,
 * the run's receipts (its cost and tokens) and the last status.json; pure, so the
 * shape is tested without a loop.
 */
import { sumReceipts, type Receipt } from './receipt.js';
import type { StatusQuotaWindow, StatusTotals } from './status-model.js';

export const RUN_REPORT_VERSION = 1;

export interface RunReport {
  version: typeof RUN_REPORT_VERSION;
  exit_reason: string;
  exit_code: number;
  cost_usd: number;
  /** true when the cost was priced from tokens, not reported by the agent. */
  cost_estimated: boolean;
  iterations: number;
  backend: string;
  /** The git branch the run worked on; null outside git or on a detached HEAD. */
  branch: string | null;
  /** The pull request the run's work went to, when one was opened. */
  pr_url: string | null;
  /** ISO 8601. */
  started_at: string;
  ended_at: string;
  /** The run the receipts name (.ralph/logs/receipts.jsonl); null when it wrote none. A run resumed after a crash keeps its id. */
  run_id: string | null;
  /** Receipts of the run (its iterations that ended), and the tokens they add up to, resumed parts included. */
  receipts: number;
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  /** The subscription windows the agent last reported (window, status, used %, reset); [] for none. */
  quota_windows: StatusQuotaWindow[];
  /** The reviewer pass (--review): its reviews, last verdict and findings, and what they cost (in cost_usd too); null without one. */
  review: { reviews: number; last_verdict: string; findings: string[]; cost_usd: number } | null;
}

export interface RunFacts {
  exitCode: number;
  /** From status.json, when the loop got far enough to write one. */
  status?: {
    exit_reason: string;
    loop_count: number;
    backend: string;
    totals: { cost_usd: number; cost_estimated: boolean };
    quota_windows?: StatusQuotaWindow[];
    review?: { reviews: number; last_verdict: string; findings: string[]; cost_usd: number } | null;
  };
  /** Used when status.json has none: the error that ended the run before the loop did. */
  fallbackReason: string;
  branch: string | undefined;
  prUrl?: string;
  startedIso: string;
  endedIso: string;
  /** The receipts of the run, when it wrote any. */
  receipts?: { runId: string; count: number; totals: StatusTotals };
}

export function buildRunReport(facts: RunFacts): RunReport {
  const status = facts.status;
  // The receipts are the record of what each call cost (the reviewer's included); status.json's
  // totals are only the last word of a process, so they speak only for a run that wrote no receipt.
  const spent = facts.receipts?.totals;
  return {
    version: RUN_REPORT_VERSION,
    exit_reason: status && status.exit_reason !== '' ? status.exit_reason : facts.fallbackReason,
    exit_code: facts.exitCode,
    cost_usd: spent ? roundUsd(spent.cost_usd) : (status?.totals.cost_usd ?? 0),
    cost_estimated: spent ? spent.cost_estimated : (status?.totals.cost_estimated ?? false),
    iterations: status?.loop_count ?? 0,
    backend: status?.backend ?? '',
    branch: facts.branch ?? null,
    pr_url: facts.prUrl ?? null,
    started_at: facts.startedIso,
    ended_at: facts.endedIso,
    run_id: facts.receipts?.runId ?? null,
    receipts: facts.receipts?.count ?? 0,
    tokens: {
      input: facts.receipts?.totals.input_tokens ?? 0,
      output: facts.receipts?.totals.output_tokens ?? 0,
      cache_read: facts.receipts?.totals.cache_read_input_tokens ?? 0,
      cache_write: facts.receipts?.totals.cache_creation_input_tokens ?? 0,
    },
    quota_windows: status?.quota_windows ?? [],
    review: status?.review
      ? { reviews: status.review.reviews, last_verdict: status.review.last_verdict, findings: [...status.review.findings], cost_usd: status.review.cost_usd }
      : null,
  };
}

/** A sum of many receipts' costs, without the float dust of adding them (1e-9 of a dollar). */
function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/**
 * The receipts of the run that ended: the run of the last receipt written since it started (a
 * resumed run's earlier receipts, written before, share its id); none when it wrote none.
 */
export function receiptsOfRun(receipts: readonly Receipt[], startedMs: number): RunFacts['receipts'] {
  const last = receipts[receipts.length - 1];
  if (!last || Date.parse(last.ended_at) < startedMs - 1000) return undefined;
  const mine = receipts.filter((r) => r.run_id === last.run_id);
  return { runId: last.run_id, count: mine.length, totals: sumReceipts(mine) };
}
