import uPlot from 'uplot';
import type { IterationPoint } from '../../src/features/observe/dashboard/dashboard-view.js';
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

interface CumulativeChart {
  id: string;
  title: string;
  perIteration: (point: IterationPoint) => number;
  cumulative: (point: IterationPoint) => number;
  format: (value: number) => string;
  stroke: string;
  /** The smallest top of the axes, so an empty chart still has a scale. */
  minTop: number;
  /** Axis labels: [cumulative, per iteration]. */
  labels: [string, string];
  axisSteps?: number[];
}

/** A chart of one figure per iteration (bars) and its running total (a line), each on its own axis. */
function cumulativeChart(c: CumulativeChart): ChartSpec {
  const value = (_u: uPlot, v: number | null): string => (v === null ? '—' : c.format(v));
  const steps = c.axisSteps ? { incrs: c.axisSteps } : {};
  const range: uPlot.Scale['range'] = (_u, _min, max) => [0, Math.max(max, c.minTop)];
  return {
    id: c.id,
    title: c.title,
    data: (p) => [x(p), p.map(c.cumulative), p.map(c.perIteration)],
    series: [
      { label: 'iteration' },
      { label: 'cumulative', scale: 'total', stroke: c.stroke, width: 2, value },
      { label: 'per iteration', scale: 'each', stroke: '#7c8cff', fill: 'rgba(124,140,255,0.35)', paths: bars, points: { show: false }, value },
    ],
    axes: [iterationAxis, { ...leftAxis(c.labels[0], 'total', c.format), ...steps }, { ...rightAxis(c.labels[1], 'each', c.format), ...steps }],
    scales: { x: xScale, total: { range }, each: { range } },
  };
}

const SPECS: ChartSpec[] = [
  cumulativeChart({
    id: 'cost',
    title: 'Cost per iteration and cumulative',
    perIteration: (i) => i.costUsd,
    cumulative: (i) => i.cumulativeCostUsd,
    format: formatUsd,
    stroke: '#f5a524',
    minTop: 0.01,
    labels: ['cumulative $', '$ per iteration'],
  }),
  cumulativeChart({
    id: 'tokens',
    title: 'Tokens per iteration and cumulative',
    perIteration: (i) => i.tokens,
    cumulative: (i) => i.cumulativeTokens,
    format: formatCount,
    stroke: '#17c964',
    minTop: 10,
    labels: ['cumulative', 'per iteration'],
    axisSteps: WHOLE_STEPS,
  }),
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
