import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { packageVersion } from '../../../infra/package-info.js';
import { isToolError, ToolError } from '../test/tool-error.js';
import type { ToolContext } from '../test/tool-home.js';
import { TOOLS, type ToolSpec } from './tool-catalog.js';
import { AGENTS } from '../../../backends/agents.js';
import { errorMessage } from '../../../errors.js';

/**
 * Ralph's MCP server: every tool of the catalog, with its zod schema as the
 * input schema (the SDK publishes it as JSON Schema and answers bad
 * arguments with an error naming each problem). A result is returned twice,
 * as the MCP spec asks: as JSON text for clients that only read text, and as
 * structuredContent. A tool that cannot do its job returns `isError: true`
 * with the same `{"error": {...}}` document `ralph test` prints.
 */

export interface ServerOptions {
  /** Everything a tool call needs but its signal and progress. */
  context: Omit<ToolContext, 'signal' | 'progress'>;
  /** Aborted when the server shuts down: running tool calls stop (ralph and verify commands are ended). */
  shutdown: AbortSignal;
}

function textResult(value: object, isError: boolean): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    ...(isError ? { isError: true } : { structuredContent: value as Record<string, unknown> }),
  };
}

async function callSpec(spec: ToolSpec, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  try {
    return textResult(await spec.run(args, ctx), false);
  } catch (error) {
    const toolError = isToolError(error) ? error : new ToolError('run_failed', `unexpected error in ${spec.name}: ${errorMessage(error) ?? String(error)}`);
    return textResult(toolError.toJson(), true);
  }
}

/** "Claude Code, Codex CLI, Gemini CLI or OpenCode": every registered agent that runs a CLI. */
function agentCliNames(): string {
  const names = AGENTS.filter((agent) => agent.settings !== undefined).map((agent) => agent.displayName);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

export function createRalphMcpServer(options: ServerOptions): McpServer {
  const server = new McpServer(
    { name: 'ralph', title: 'Ralph', version: packageVersion() },
    {
      instructions: `Ralph runs a coding agent (${agentCliNames()}) in a loop until work is verifiably done. Use verify as a ground-truth gate for your own changes (call it after each fix with the same gate_id), ralph_status to see a loop, and the test_* tools to set up, run, assert on and inspect scripted Ralph runs in throwaway workspaces.`,
    },
  );
  for (const spec of TOOLS) {
    server.registerTool(spec.name, { title: spec.title, description: spec.description, inputSchema: spec.schema }, async (args: unknown, extra) => {
      const token = extra._meta?.progressToken;
      let step = 0;
      const ctx: ToolContext = {
        ...options.context,
        signal: AbortSignal.any([extra.signal, options.shutdown]),
        ...(token !== undefined
          ? {
              progress: (message: string) => {
                step += 1;
                void extra
                  .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } })
                  .catch(() => undefined);
              },
            }
          : {}),
      };
      return callSpec(spec, args, ctx);
    });
  }
  return server;
}
