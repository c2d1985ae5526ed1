import type { RalphConfig } from '../config/keys.js';
import type { AgentDeclaration } from './agent-declaration.js';

/**
 * What the configuration asks of the agent that its backend cannot do, one sentence each,
 * said once before the loop starts instead of silently not happening.
 */
export function capabilityWarnings(
  entry: Pick<AgentDeclaration, 'displayName' | 'capabilities'>,
  config: Pick<RalphConfig, 'sessionContinuity' | 'maxCostUsd' | 'live'>,
): string[] {
  const { displayName: agent, capabilities: can } = entry;
  const warnings: string[] = [];
  if (!can.resume && config.sessionContinuity) warnings.push(`${agent} cannot continue a conversation: every loop starts a new one.`);
  if (!can.cost && config.maxCostUsd > 0) warnings.push(`${agent} reports no cost: --max-cost is not enforced.`);
  if (!can.liveView && config.live) warnings.push(`${agent} does not stream its progress: --live shows each call's result only.`);
  if (!can.permissionDenials) warnings.push(`${agent} does not report refused tool calls: Ralph cannot stop for missing permissions (exit 4).`);
  return warnings;
}
