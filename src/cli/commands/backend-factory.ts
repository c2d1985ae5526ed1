import { resolve } from 'node:path';
import { ClaudeBackend } from '../../backends/claude-backend.js';
import { MockBackend } from '../../backends/mock-backend.js';
import type { RalphConfig } from '../../config/keys.js';
import { buildAgentEnv } from '../../core/agent-env.js';
import { describeEnvFilter } from '../../core/secret-env.js';
import type { AgentBackend, Clock, Logger, ProcessRunner } from '../../ports.js';
import type { RalphPaths } from '../../state/paths.js';

export interface BackendContext {
  paths: RalphPaths;
  runner: ProcessRunner;
  clock: Clock;
  logger: Logger;
  env: NodeJS.ProcessEnv;
}

export function createBackend(config: RalphConfig, ctx: BackendContext): AgentBackend {
  if (config.backend === 'mock') {
    return new MockBackend({
      scriptPath: resolve(ctx.paths.project, config.mockScript),
      projectDir: ctx.paths.project,
      fixPlanPath: ctx.paths.fixPlan,
      optionalSections: config.optionalSections,
      runner: ctx.runner,
      clock: ctx.clock,
    });
  }
  const agentEnv = buildAgentEnv(ctx.env, config.agentEnv);
  const said = describeEnvFilter('Agent', agentEnv, '--agent-env NAME');
  if (said) ctx.logger.info(said);
  if (agentEnv.missing.length > 0) ctx.logger.warn(`--agent-env/AGENT_ENV names ${agentEnv.missing.join(', ')}, which ${agentEnv.missing.length === 1 ? 'is' : 'are'} not set in the environment.`);
  return new ClaudeBackend({
    command: config.claudeCommand,
    model: config.model,
    effort: config.effort,
    outputFormat: config.outputFormat,
    allowedTools: config.allowedTools,
    env: agentEnv.env,
    logger: ctx.logger,
  });
}
