import { formatUsd } from '../core/cost-display.js';
import type { StatusDocument } from '../core/status-model.js';
import { part, type Line } from './styled-line.js';
import { LABEL_WIDTH } from './monitor-sections.js';

/** How many findings the monitor lists before it says how many more there are. */
const SHOWN_FINDINGS = 5;

/** The reviewer pass (--review) in the monitor: reviews, the last verdict and its findings, what the reviews cost. */
export function reviewSection(doc: StatusDocument): Line[] {
  const r = doc.review;
  if (!r) return [];
  // The monitor's own label column: `  Label:` padded as its other sections pad it.
  const label = (name: string): ReturnType<typeof part> => part(`  ${(name === '' ? '' : `${name}:`).padEnd(LABEL_WIDTH)}`, 'dim');
  const verdict =
    r.last_verdict === '' ? part('not reviewed yet', 'dim') : r.last_verdict === 'APPROVED' ? part('APPROVED', 'green') : part('CHANGES_REQUESTED', 'yellow');
  const lines: Line[] = [
    [label('Reviewer'), part(`${r.backend} · ${r.reviews} review${r.reviews === 1 ? '' : 's'} · ${formatUsd(r.cost_usd)}`)],
    [label('Verdict'), verdict, part(` · ${r.rejected_in_a_row}/${r.max_rejected} rejected in a row`)],
  ];
  for (const finding of r.findings.slice(0, SHOWN_FINDINGS)) lines.push([label(''), part(`- ${finding}`)]);
  if (r.findings.length > SHOWN_FINDINGS) lines.push([label(''), part(`… ${r.findings.length - SHOWN_FINDINGS} more findings`, 'dim')]);
  return lines;
}
