import { agentSettingField } from '../../backends/agents.js';
import { backendEntry, type BackendContext } from '../../backends/registry.js';
import { BACKEND_NAMES } from '../../backends/agents.js';
import type { RalphConfig } from '../../config/keys.js';
import type { ReviewPort } from '../../engine/ports.js';
import { UsageError } from '../../errors.js';
import { startRunDiff } from '../../infra/run-diff.js';
import type { AgentBackend } from '../../ports.js';
import { readProjectText } from '../../state/project-file-read.js';

/**
 * The reviewer of a loop with --review: the loop's own backend (the same instance, so a mock
 * script plays both roles in order) unless --review-backend or --review-model ask for another,
 * which is then built and checked like the worker's. The start commit of the run diff is noted
 * here, before the first call.
 */
export async function createReviewPort(ctx: BackendContext, worker: AgentBackend, dryRun: boolean): Promise<ReviewPort | undefined> {
  const { config } = ctx;
  if (!config.review) return undefined;
  const name = config.reviewBackend || config.backend;
  const entry = backendEntry(name);
  if (entry.readOnly === undefined) {
    const others = BACKEND_NAMES.filter((n) => backendEntry(n).readOnly !== undefined).join(', ');
    throw new UsageError(
      `--review: ${entry.displayName} has no read-only mode, so it cannot review.`,
      `Choose a reviewer that has one with --review-backend (${others}).`,
    );
  }
  const modelField = agentSettingField(name, 'model');
  const sameAgent = name === config.backend && (config.reviewModel === '' || modelField === undefined);
  let backend = worker;
  if (!sameAgent) {
    const reviewConfig: RalphConfig = { ...config, backend: name, ...(config.reviewModel && modelField ? { [modelField]: config.reviewModel } : {}) };
    const reviewCtx = { ...ctx, config: reviewConfig };
    if (!dryRun && name !== config.backend) await entry.preflight(reviewCtx);
    backend = await entry.create(reviewCtx);
  }
  const diff = await startRunDiff(ctx.paths.project, ctx.runner);
  const configured = modelField ? (config as unknown as Record<string, unknown>)[modelField] : undefined;
  const model = config.reviewModel || (typeof configured === 'string' ? configured : '');
  return {
    backend,
    runDiff: () => diff.runDiff(),
    planText: () => readProjectText(ctx.paths.project, ctx.paths.fixPlan, 'fix_plan.md'),
    ...(model ? { model } : {}),
    readOnlyMode: entry.readOnly.about,
  };
}
