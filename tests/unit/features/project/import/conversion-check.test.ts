import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotOutputs, findUnproducedOutputs, addStatusSection } from '../../../../../src/features/project/import/conversion-check.js';
import { readTemplate } from '../../../../../src/features/project/templates.js';
import { parseStatusBlock } from '../../../../../src/core/ralph-status-block.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

const snapshot = (entries: Record<string, string | undefined>): Map<string, string | undefined> => new Map(Object.entries(entries));

describe('findUnproducedOutputs', () => {
  const before = snapshot({ '.ralph/PROMPT.md': 'template prompt', '.ralph/fix_plan.md': 'template plan', '.ralph/specs/requirements.md': undefined });

  it('is empty when all three files are new or changed', () => {
    expect(findUnproducedOutputs(before, snapshot({ '.ralph/PROMPT.md': 'new', '.ralph/fix_plan.md': 'new', '.ralph/specs/requirements.md': 'r' }))).toEqual(
      [],
    );
  });

  it('counts untouched templates, missing and empty files as not produced', () => {
    const after = snapshot({ '.ralph/PROMPT.md': 'template prompt', '.ralph/fix_plan.md': '  \n', '.ralph/specs/requirements.md': undefined });
    expect(findUnproducedOutputs(before, after)).toEqual(['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/specs/requirements.md']);
  });

  it('reads the files from a project folder', () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.ralph/specs'), { recursive: true });
    writeFileSync(join(dir, '.ralph/PROMPT.md'), 'p');
    writeFileSync(join(dir, '.ralph/specs/requirements.md'), 'r');
    expect([...snapshotOutputs(dir).entries()]).toEqual([
      ['.ralph/PROMPT.md', 'p'],
      ['.ralph/fix_plan.md', undefined],
      ['.ralph/specs/requirements.md', 'r'],
    ]);
  });
});

describe('addStatusSection', () => {
  const template = readTemplate('PROMPT.md');

  it('leaves a prompt with a RALPH_STATUS block alone', () => {
    expect(addStatusSection('# P\n\n---RALPH_STATUS---\nEXIT_SIGNAL: false\n---END_RALPH_STATUS---\n', template)).toBeUndefined();
  });

  it("appends the template's status section to a prompt that lost it", () => {
    const repaired = addStatusSection('# Custom prompt\n\nBuild it.\n\n\n', template);
    expect(repaired?.startsWith('# Custom prompt\n\nBuild it.\n\n## Status Reporting (CRITICAL)\n')).toBe(true);
    expect(repaired).toContain('---END_RALPH_STATUS---');
    expect(parseStatusBlock(repaired ?? '')).toBeDefined();
  });

  it('fails loudly if the template ever loses the section', () => {
    expect(() => addStatusSection('x', '# no status here')).toThrow(/Status Reporting/);
  });
});
