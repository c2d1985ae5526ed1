import type { Receipt } from '../../core/receipt.js';
import { formatUsd } from '../../core/cost-display.js';
import { formatCount } from '../../ui/monitor-sections.js';

/**
 * ralph-stats over the receipts (.ralph/logs/receipts.jsonl): what every run's iterations spent
 * and did, by run, and what the loop decided after them. Pure: the receipts in, the figures out.
 */
export interface ReceiptStats {
  receipts: number;
  runs: number;
  /** Runs that went on after a crash (a receipt numbered past its process's first iteration). */
  resumed_runs: number;
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  cost_usd: { total: number; reported: number; estimated: number; unknown_receipts: number };
  tool_uses: number;
  denials: number;
  files_changed: number;
  verify: { runs: number; passed: number };
  checkpoints: { dropped: number; rolled_back: number; kept: number };
  /** What the loop decided after the iterations: continue, wait, stop (with the stop reasons). */
  decisions: Record<string, number>;
  skipped_lines: number;
}

export function summarizeReceipts(receipts: readonly Receipt[], skippedLines: number): ReceiptStats {
  const s: ReceiptStats = {
    receipts: receipts.length,
    runs: new Set(receipts.map((r) => r.run_id)).size,
    resumed_runs: new Set(receipts.filter((r) => r.iteration !== r.loop).map((r) => r.run_id)).size,
    tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    cost_usd: { total: 0, reported: 0, estimated: 0, unknown_receipts: 0 },
    tool_uses: 0,
    denials: 0,
    files_changed: 0,
    verify: { runs: 0, passed: 0 },
    checkpoints: { dropped: 0, rolled_back: 0, kept: 0 },
    decisions: {},
    skipped_lines: skippedLines,
  };
  for (const r of receipts) {
    s.tokens.input += r.tokens.input;
    s.tokens.output += r.tokens.output;
    s.tokens.cache_read += r.tokens.cache_read;
    s.tokens.cache_write += r.tokens.cache_write;
    if (r.cost.usd !== null) {
      s.cost_usd.total += r.cost.usd;
      if (r.cost.source === 'estimated') s.cost_usd.estimated += r.cost.usd;
      else s.cost_usd.reported += r.cost.usd;
    }
    if (r.cost.source === 'unknown') s.cost_usd.unknown_receipts += 1;
    s.tool_uses += r.tool_uses;
    s.denials += r.denials.length;
    s.files_changed += r.files_changed;
    if (r.verify) {
      s.verify.runs += 1;
      if (r.verify.passed) s.verify.passed += 1;
    }
    if (r.checkpoint) s.checkpoints[r.checkpoint.rollback] += 1;
    const decision = r.exit.decision === 'stop' ? `stop: ${r.exit.reason ?? '?'}` : r.exit.decision;
    s.decisions[decision] = (s.decisions[decision] ?? 0) + 1;
  }
  s.cost_usd.total = round(s.cost_usd.total);
  s.cost_usd.reported = round(s.cost_usd.reported);
  s.cost_usd.estimated = round(s.cost_usd.estimated);
  return s;
}

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

function counts(record: Record<string, number>): string {
  const entries = Object.entries(record);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${k} ${n}`).join(' · ');
}

/** The receipts block of ralph-stats' text. */
export function formatReceiptStats(s: ReceiptStats, source: string): string {
  const t = s.tokens;
  const cost = `${formatUsd(s.cost_usd.total)} (reported ${formatUsd(s.cost_usd.reported)} · estimated ${formatUsd(s.cost_usd.estimated)}${s.cost_usd.unknown_receipts > 0 ? ` · unknown for ${s.cost_usd.unknown_receipts}` : ''})`;
  const rows: Array<[string, string]> = [
    ['Receipts', `${s.receipts} over ${s.runs} run${s.runs === 1 ? '' : 's'}${s.resumed_runs > 0 ? ` (${s.resumed_runs} resumed after a crash)` : ''}`],
    [
      'Tokens',
      `in ${formatCount(t.input)} · out ${formatCount(t.output)} · cache read ${formatCount(t.cache_read)} · cache write ${formatCount(t.cache_write)}`,
    ],
    ['Cost', cost],
    ['Work', `${s.tool_uses} tool uses · ${s.denials} denied · ${s.files_changed} files changed`],
    ['Verify', s.verify.runs === 0 ? 'no verify runs' : `${s.verify.runs} runs · ${s.verify.passed} passed`],
    ['Checkpoints', `${s.checkpoints.dropped} dropped · ${s.checkpoints.rolled_back} rolled back · ${s.checkpoints.kept} kept`],
    ['Decisions', counts(s.decisions)],
  ];
  return [`Ralph receipts · ${source}`, '', ...rows.map(([k, v]) => `  ${k.padEnd(14)}${v}`), ''].join('\n');
}
