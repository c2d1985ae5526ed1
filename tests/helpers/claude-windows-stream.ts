/**
 * A Claude Code stream-json call as the real CLI (2.1.330) prints it when the API's
 * `anthropic-ratelimit-unified-*` headers report the subscription windows: the init line, the
 * `rate_limit_event` (its shape copied from the CLI's own output against the fake API), and the
 * result with the call's usage.
 */
export interface WindowReport {
  kind: string;
  status: 'allowed' | 'allowed_warning' | 'rejected';
  /** Epoch milliseconds. */
  resetsAt: number;
  utilization?: number;
}

export interface StreamUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export function claudeWindowsStream(windows: readonly WindowReport[], text: string, usage: StreamUsage = { input: 100, output: 20 }): string {
  const main = windows.find((w) => w.status !== 'allowed') ?? windows[0];
  const seconds = (ms: number): number => Math.floor(ms / 1000);
  const lines: unknown[] = [{ type: 'system', subtype: 'init', session_id: 'sess-windows-1', model: 'claude-fake' }];
  if (main) {
    lines.push({
      type: 'rate_limit_event',
      rate_limit_info: {
        status: main.status,
        resetsAt: seconds(main.resetsAt),
        rateLimitType: main.kind,
        ...(main.utilization !== undefined ? { utilization: main.utilization } : {}),
        isUsingOverage: false,
        unifiedWindows: Object.fromEntries(
          windows.map((w) => [
            w.kind,
            { ...(w.utilization !== undefined ? { utilization: w.utilization } : {}), resetsAt: seconds(w.resetsAt), status: w.status },
          ]),
        ),
      },
      uuid: 'e0b46db7-0000-4000-8000-000000000001',
      session_id: 'sess-windows-1',
    });
  }
  lines.push({
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    result: text,
    session_id: 'sess-windows-1',
    total_cost_usd: 0.01,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_read_input_tokens: usage.cacheRead ?? 0,
      cache_creation_input_tokens: usage.cacheWrite ?? 0,
    },
  });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}
