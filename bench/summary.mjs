// The one table `npm run bench` ends with: every headline figure beside the floor it is measured
// against, the ratio ours ÷ floor, the target and peak RSS. Each bench script keeps its own
// detailed table; it also hands its headline figures to `saveFigures`, and run-all prints them
// together once every script has run, so a reader sees the whole picture in one place.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

const RESULTS = join(ROOT, 'bench', 'results');
const FIGURES = join(RESULTS, 'figures.jsonl');

/**
 * A headline figure: `ours` and `floor` in `unit`; `target` says what ok means ("≤ 2× floor",
 * "≤ floor + 10 ms", "≤ 100 MB"); `ok` is the verdict against it; `peakRssMb` when memory is part
 * of the measure.
 * @typedef {{ script: string, measure: string, ours: number, floor?: number, unit: string, target: string, ok: boolean, peakRssMb?: number }} Figure
 */

/** Starts a fresh summary: run-all calls it before the first script. */
export function resetFigures() {
  rmSync(FIGURES, { force: true });
}

/** Appends a script's headline figures (a script run alone just adds to the file). */
export function saveFigures(script, figures) {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(FIGURES, figures.map((f) => `${JSON.stringify({ script, ...f })}\n`).join(''), { flag: 'a' });
}

export function readFigures() {
  if (!existsSync(FIGURES)) return [];
  return readFileSync(FIGURES, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const number = (value, unit) => (value === undefined ? '' : `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${unit}`);

/** The summary as text lines (a table of fixed-width columns). */
export function formatFigures(figures) {
  const rows = figures.map((f) => [
    f.measure,
    number(f.ours, f.unit),
    number(f.floor, f.unit),
    f.floor ? `${(f.ours / f.floor).toFixed(2)}×` : '',
    f.peakRssMb === undefined ? '' : `${f.peakRssMb.toFixed(0)} MB`,
    f.target,
    f.ok ? 'ok' : 'OVER',
  ]);
  const head = ['measure', 'ours', 'floor', 'ratio', 'peak RSS', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `  ${cells.map((c, i) => (i === 0 || i >= 5 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line)];
}
