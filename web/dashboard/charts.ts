import uPlot from 'uplot';
import type { IterationPoint } from '../../src/features/dashboard/dashboard-view.js';
import { formatCount, formatUsd } from './format.js';

interface ChartSpec {
  id: string;
  title: string;
  /** [x, ...series] from the points. */
  data: (points: readonly IterationPoint[]) => uPlot.AlignedData;
  series: uPlot.Series[];
  axes: uPlot.Axis[];
  scales: uPlot.Scales;
}

const bars = uPlot.paths.bars ? uPlot.paths.bars({ size: [0.6, 40] }) : undefined;
const x = (points: readonly IterationPoint[]): number[] => points.map((p) => p.index);
// Iterations are whole numbers: ticks at whole steps only.
const iterationAxis: uPlot.Axis = { label: 'iteration', stroke: '#9aa4b2', grid: { stroke: '#2a3140' }, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] };
/** Half an iteration of room on each side, so the first and last bars show whole. */
const xScale: uPlot.Scale = { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] };
/** Tick steps for counts: whole numbers only (1, 2, 5, 10, 20, 50, …). */
const WHOLE_STEPS = Array.from({ length: 10 }, (_, k) => [1, 2, 5].map((m) => m * 10 ** k)).flat();
const leftAxis = (label: string, scale: string, format: (v: number) => string): uPlot.Axis => ({
  label,
  scale,
  stroke: '#9aa4b2',
  grid: { stroke: '#2a3140' },
  size: 70,
  values: (_u, values) => values.map(format),
});
const rightAxis = (label: string, scale: string, format: (v: number) => string): uPlot.Axis => ({
  ...leftAxis(label, scale, format),
  side: 1,
  grid: { show: false },
});

const SPECS: ChartSpec[] = [
  {
    id: 'cost',
    title: 'Cost per iteration and cumulative',
    data: (p) => [x(p), p.map((i) => i.cumulativeCostUsd), p.map((i) => i.costUsd)],
    series: [
      { label: 'iteration' },
      { label: 'cumulative', scale: 'total', stroke: '#f5a524', width: 2, value: (_u, v) => (v === null ? '—' : formatUsd(v)) },
      {
        label: 'per iteration',
        scale: 'each',
        stroke: '#7c8cff',
        fill: 'rgba(124,140,255,0.35)',
        paths: bars,
        points: { show: false },
        value: (_u, v) => (v === null ? '—' : formatUsd(v)),
      },
    ],
    axes: [iterationAxis, leftAxis('cumulative $', 'total', (v) => formatUsd(v)), rightAxis('$ per iteration', 'each', (v) => formatUsd(v))],
    scales: { x: xScale, total: { range: (_u, _min, max) => [0, Math.max(max, 0.01)] }, each: { range: (_u, _min, max) => [0, Math.max(max, 0.01)] } },
  },
  {
    id: 'tokens',
    title: 'Tokens per iteration and cumulative',
    data: (p) => [x(p), p.map((i) => i.cumulativeTokens), p.map((i) => i.tokens)],
    series: [
      { label: 'iteration' },
      { label: 'cumulative', scale: 'total', stroke: '#17c964', width: 2, value: (_u, v) => (v === null ? '—' : formatCount(v)) },
      {
        label: 'per iteration',
        scale: 'each',
        stroke: '#7c8cff',
        fill: 'rgba(124,140,255,0.35)',
        paths: bars,
        points: { show: false },
        value: (_u, v) => (v === null ? '—' : formatCount(v)),
      },
    ],
    axes: [
      iterationAxis,
      { ...leftAxis('cumulative', 'total', formatCount), incrs: WHOLE_STEPS },
      { ...rightAxis('per iteration', 'each', formatCount), incrs: WHOLE_STEPS },
    ],
    scales: { x: xScale, total: { range: (_u, _min, max) => [0, Math.max(max, 10)] }, each: { range: (_u, _min, max) => [0, Math.max(max, 10)] } },
  },
  {
    id: 'duration',
    title: 'Iteration duration',
    data: (p) => [x(p), p.map((i) => i.durationSec)],
    series: [{ label: 'iteration' }, { label: 'seconds', scale: 's', stroke: '#06b7db', fill: 'rgba(6,183,219,0.35)', paths: bars, points: { show: false } }],
    axes: [iterationAxis, leftAxis('seconds', 's', (v) => String(v))],
    scales: { x: xScale, s: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
  },
  {
    id: 'verify',
    title: 'Verify per iteration',
    data: (p) => [x(p), p.map((i) => (i.verifyPassed === true ? 1 : null)), p.map((i) => (i.verifyPassed === false ? 1 : null))],
    series: [
      { label: 'iteration' },
      {
        label: 'passed',
        scale: 'v',
        stroke: '#17c964',
        fill: 'rgba(23,201,100,0.6)',
        paths: bars,
        points: { show: false },
        value: (_u, v) => (v === null ? '—' : 'yes'),
      },
      {
        label: 'failed',
        scale: 'v',
        stroke: '#f31260',
        fill: 'rgba(243,18,96,0.6)',
        paths: bars,
        points: { show: false },
        value: (_u, v) => (v === null ? '—' : 'yes'),
      },
    ],
    axes: [iterationAxis, { scale: 'v', show: false }],
    scales: { x: xScale, v: { range: [0, 1] } },
  },
];

interface LiveChart {
  plot: uPlot;
  spec: ChartSpec;
  box: HTMLElement;
}

/** The four charts of one loop, kept between updates so a new point does not redraw the page. */
export class LoopCharts {
  private charts: LiveChart[] = [];
  private loopId: string | null = null;

  /** Puts the charts (created once per loop) into `host` and gives them the latest points. */
  show(host: HTMLElement, loopId: string, points: readonly IterationPoint[]): void {
    if (this.loopId !== loopId) this.destroy();
    this.loopId = loopId;
    if (this.charts.length === 0) {
      for (const spec of SPECS) {
        const box = document.createElement('div');
        box.className = 'chart';
        box.dataset['testid'] = `chart-${spec.id}`;
        const title = document.createElement('h3');
        title.textContent = spec.title;
        box.append(title);
        const plot = new uPlot(
          { width: 400, height: 220, series: spec.series, axes: spec.axes, scales: spec.scales, legend: { live: true } },
          spec.data(points),
          box,
        );
        this.charts.push({ plot, spec, box });
      }
    } else {
      for (const chart of this.charts) chart.plot.setData(chart.spec.data(points));
    }
    for (const chart of this.charts) host.append(chart.box);
    this.resize();
  }

  resize(): void {
    for (const chart of this.charts) {
      const width = Math.max(260, Math.floor(chart.box.clientWidth || 400));
      if (chart.plot.width !== width) chart.plot.setSize({ width, height: 220 });
    }
  }

  destroy(): void {
    for (const chart of this.charts) {
      chart.plot.destroy();
      chart.box.remove();
    }
    this.charts = [];
    this.loopId = null;
  }
}
