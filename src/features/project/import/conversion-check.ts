import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONVERSION_OUTPUTS } from './conversion-prompt.js';

export type OutputSnapshot = ReadonlyMap<string, string | undefined>;

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The conversion's output files as they are now (content, or undefined when absent). */
export function snapshotOutputs(projectDir: string): OutputSnapshot {
  return new Map(CONVERSION_OUTPUTS.map((rel) => [rel, readOrUndefined(join(projectDir, rel))]));
}

/**
 * Output files the conversion did not produce: absent, empty, or still
 * exactly what setup wrote before the call (the templates must not count as
 * a conversion).
 */
export function findUnproducedOutputs(before: OutputSnapshot, after: OutputSnapshot): string[] {
  return CONVERSION_OUTPUTS.filter((rel) => {
    const now = after.get(rel);
    return now === undefined || now.trim() === '' || now === before.get(rel);
  });
}

const STATUS_OPEN = /^\s*-{3,}\s*RALPH_STATUS\s*-{3,}\s*$/m;
const STATUS_HEADING = '## Status Reporting (CRITICAL)';

/**
 * The loop depends on the RALPH_STATUS block, so a converted PROMPT.md that
 * lost it gets the template's status section appended. Returns undefined when
 * the block is there.
 */
export function addStatusSection(prompt: string, template: string): string | undefined {
  if (STATUS_OPEN.test(prompt)) return undefined;
  const start = template.indexOf(STATUS_HEADING);
  if (start === -1) throw new Error(`the PROMPT.md template has no "${STATUS_HEADING}" section`);
  return `${prompt.replace(/\s*$/, '')}\n\n${template.slice(start)}`;
}
