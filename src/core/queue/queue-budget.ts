/**
 * One `--max-cost` for the whole queue run, not one per loop: what finished
 * items spent plus what the running loops have spent so far, against the cap.
 * 0 means no cap, as it does for a single loop.
 */
export interface BudgetView {
  maxCostUsd: number;
  /** Spent by the loops of this run that already ended. */
  finishedUsd: number;
  /** Spent so far by each running loop (from its status.json). */
  runningUsd: readonly number[];
}

export function spentUsd(view: BudgetView): number {
  return view.runningUsd.reduce((sum, usd) => sum + usd, view.finishedUsd);
}

export function budgetReached(view: BudgetView): boolean {
  return view.maxCostUsd > 0 && spentUsd(view) >= view.maxCostUsd;
}

/**
 * The --max-cost a new loop gets: what is left of the shared budget, so even
 * alone it cannot spend past it. undefined without a cap; 0 when nothing is
 * left (no loop may start).
 */
export function budgetForNewLoop(view: BudgetView): number | undefined {
  if (view.maxCostUsd <= 0) return undefined;
  return Math.max(0, view.maxCostUsd - spentUsd(view));
}
