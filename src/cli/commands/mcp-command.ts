import { errorMessage, ExitCode } from '../../errors.js';
import type { ToolContext } from '../../features/agent-tools/test/tool-home.js';
import { createDefaultDeps } from '../deps.js';

/**
 * `ralph mcp`: the MCP server on stdio. Standard output carries protocol
 * messages and nothing else — console.log and friends are sent to stderr
 * while the server runs, and so are all of Ralph's messages. The server
 * ends cleanly when its client closes stdin (or on SIGINT/SIGTERM): running
 * tool calls are stopped, then the process exits 0. The SDK is imported here
 * only, so `ralph --help` does not pay for it.
 */
export async function runMcpCommand(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const log = (message: string): void => {
    process.stderr.write(`ralph mcp: ${message}\n`);
  };

  const [{ BoundedStdioTransport }, { createRalphMcpServer }, { cleanStaleWorkspaces }, { TOOLS }] = await Promise.all([
    import('../../features/agent-tools/mcp/bounded-stdio-transport.js'),
    import('../../features/agent-tools/mcp/mcp-server.js'),
    import('../../features/agent-tools/test/stale-cleanup.js'),
    import('../../features/agent-tools/mcp/tool-catalog.js'),
  ]);
  const { runner, clock } = createDefaultDeps();
  const context: Omit<ToolContext, 'signal' | 'progress'> = { env, cwd, now: () => clock.now(), runner, warn: (m) => log(`warning: ${m}`) };
  await cleanStaleWorkspaces(context).catch((error: unknown) => log(`warning: stale workspace cleanup failed: ${errorMessage(error)}`));

  const shutdown = new AbortController();
  const server = createRalphMcpServer({ context, shutdown: shutdown.signal });
  const transport = new BoundedStdioTransport();
  const closed = new Promise<string>((resolve) => {
    process.stdin.once('end', () => resolve('stdin closed'));
    process.stdin.once('close', () => resolve('stdin closed'));
    process.stdout.once('error', () => resolve('stdout closed'));
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    server.server.onclose = () => resolve('connection closed');
  });
  await server.connect(transport);
  // Unreadable or oversized messages are answered or dropped; the server keeps serving and says why here.
  server.server.onerror = (error) => log(`warning: ${error.message}`);
  log(`serving ${TOOLS.length} tools on stdio (${TOOLS.map((t) => t.name).join(', ')})`);
  const why = await closed;
  log(`${why}; shutting down`);
  shutdown.abort();
  await server.close().catch(() => undefined);
  // Nothing may keep the process alive once the client is gone.
  process.stdin.destroy();
  return ExitCode.Completed;
}
