import type { RalphConfig } from '../config/keys.js';
import type { AgentDeclaration } from './agent-declaration.js';

/**
 * What the configuration asks of the agent that its backend cannot do, one sentence each,
 * said once before the loop starts instead of silently not happening.
 */
export function capabilityWarnings(
  entry: Pick<AgentDeclaration, 'displayName' | 'capabilities'>,
  config: Pick<RalphConfig, 'sessionContinuity' | 'maxCostUsd' | 'live'> & Partial<Pick<RalphConfig, 'parkAt' | 'stopAt'>>,
): string[] {
  const { displayName: agent, capabilities: can } = entry;
  const warnings: string[] = [];
  if (!can.resume && config.sessionContinuity) warnings.push(`${agent} cannot continue a conversation: every loop starts a new one.`);
  if (!can.cost && config.maxCostUsd > 0) warnings.push(`${agent} reports no cost: --max-cost is not enforced.`);
  if (!can.liveView && config.live) warnings.push(`${agent} does not stream its progress: --live shows each call's result only.`);
  if (!can.permissionDenials) warnings.push(`${agent} does not report refused tool calls: Ralph cannot stop for missing permissions (exit 4).`);
  warnings.push(...windowWarnings(agent, can.quotaWindows, config));
  return warnings;
}

/** --park-at / --stop-at with an agent that reports no windows, or no warning of its own. */
function windowWarnings(
  agent: string,
  reports: AgentDeclaration['capabilities']['quotaWindows'],
  config: Partial<Pick<RalphConfig, 'parkAt' | 'stopAt'>>,
): string[] {
  const rules = [
    ['--park-at', config.parkAt],
    ['--stop-at', config.stopAt],
  ] as const;
  const given = rules.filter(([, rule]) => rule !== null && rule !== undefined);
  if (given.length === 0) return [];
  const flags = given.map(([flag]) => flag).join(' and ');
  if (reports === undefined) return [`${agent} reports no subscription windows: ${flags} never ${given.length > 1 ? 'trigger' : 'triggers'}.`];
  const onWarning = given.filter(([, rule]) => rule?.at === 'warning').map(([flag]) => flag);
  if (reports === 'percent' && onWarning.length > 0) {
    return [`${agent} reports its subscription windows as percentages, with no warning of its own: give ${onWarning.join(' and ')} a percentage, e.g. 80%.`];
  }
  return [];
}
