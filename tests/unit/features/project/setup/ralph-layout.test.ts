import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRalphrc } from '../../../../../src/config/ralphrc.js';
import { createRalphLayout, LAYOUT_DIRS } from '../../../../../src/features/project/setup/ralph-layout.js';
import { missingProjectFiles } from '../../../../../src/state/project-files.js';
import { MERGE_HEADER } from '../../../../../src/features/project/setup/gitignore-merge.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

const read = (dir: string, rel: string): string => readFileSync(join(dir, rel), 'utf8');
const rcValue = (dir: string, key: string): string | undefined => parseRalphrc(read(dir, '.ralphrc')).entries.find((e) => e.key === key)?.value;

describe('createRalphLayout', () => {
  it('creates every folder and file in an empty folder', () => {
    const dir = join(tempDir(), 'new project');
    const result = createRalphLayout(dir, { projectName: 'new project', includeSrc: true, createReadme: true, commands: { test: 'npm test' } });
    expect(result.created).toEqual(['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/AGENT.md', '.ralphrc', '.gitignore', 'README.md']);
    expect(result.skipped).toEqual([]);
    for (const rel of [...LAYOUT_DIRS, 'src']) expect(statSync(join(dir, rel)).isDirectory()).toBe(true);
    expect(statSync(join(dir, '.ralphrc')).mode & 0o777).toBe(0o600);
    expect(read(dir, 'README.md')).toBe('# new project\n');
    expect(read(dir, '.ralph/PROMPT.md')).toContain('**new project** (generic)');
    expect(read(dir, '.ralph/AGENT.md')).toContain('```bash\nnpm test\n```');
    expect(read(dir, '.ralph/AGENT.md')).toContain('not known yet');
    expect(rcValue(dir, 'PROJECT_NAME')).toBe('new project');
    expect(rcValue(dir, 'PROJECT_TYPE')).toBe('generic');
    expect(missingProjectFiles(dir)).toEqual([]);
  });

  it('never overwrites existing files without force, and keeps them byte for byte', () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.ralph'));
    const mine = { 'README.md': 'my readme\r\n', '.gitignore': 'dist/\n', '.ralph/fix_plan.md': '- [ ] mine\n', '.ralphrc': 'MAX_CALLS_PER_HOUR=7\n' };
    for (const [rel, text] of Object.entries(mine)) writeFileSync(join(dir, rel), text);
    const result = createRalphLayout(dir, { projectName: 'p', createReadme: true, gitignore: 'create-only' });
    expect(result.created).toEqual(['.ralph/PROMPT.md', '.ralph/AGENT.md']);
    expect(result.skipped.sort()).toEqual(['.gitignore', '.ralph/fix_plan.md', '.ralphrc', 'README.md']);
    for (const [rel, text] of Object.entries(mine)) expect(read(dir, rel)).toBe(text);
  });

  it("with force replaces Ralph's files in .ralph/ but not the user's", () => {
    const dir = tempDir();
    createRalphLayout(dir, { projectName: 'p' });
    writeFileSync(join(dir, '.ralph/PROMPT.md'), 'old');
    writeFileSync(join(dir, '.ralphrc'), 'MAX_CALLS_PER_HOUR=7\n');
    writeFileSync(join(dir, '.gitignore'), 'dist/\n');
    const result = createRalphLayout(dir, { projectName: 'p', force: true, fixPlan: '- [ ] imported\n' });
    // AGENT.md still matches its template: nothing to replace or keep.
    expect(result.overwritten).toEqual(['.ralph/PROMPT.md', '.ralph/fix_plan.md']);
    expect(result.backups).toEqual(['.ralph/PROMPT.md.bak', '.ralph/fix_plan.md.bak']);
    expect(result.skipped).toContain('.ralph/AGENT.md');
    expect(read(dir, '.ralph/PROMPT.md.bak')).toBe('old');
    expect(read(dir, '.ralph/PROMPT.md')).toContain('RALPH_STATUS');
    expect(read(dir, '.ralph/fix_plan.md')).toBe('- [ ] imported\n');
    expect(read(dir, '.ralphrc')).toBe('MAX_CALLS_PER_HOUR=7\n');
    expect(read(dir, '.gitignore')).toBe('dist/\n');
  });

  it('with force never overwrites a backup: the next free name is used', () => {
    const dir = tempDir();
    createRalphLayout(dir, { projectName: 'p' });
    for (const [rel, text] of [
      ['.ralph/AGENT.md', 'mine'],
      ['.ralph/AGENT.md.bak', 'older'],
      ['.ralph/AGENT.md.bak.1', 'oldest'],
    ])
      writeFileSync(join(dir, rel as string), text as string);
    const result = createRalphLayout(dir, { projectName: 'p', force: true });
    expect(result.backups).toEqual(['.ralph/AGENT.md.bak.2']);
    expect([read(dir, '.ralph/AGENT.md.bak.2'), read(dir, '.ralph/AGENT.md.bak'), read(dir, '.ralph/AGENT.md.bak.1')]).toEqual(['mine', 'older', 'oldest']);
  });

  it('with force keeps a symlinked file as the link it is, never writing through it', () => {
    const dir = tempDir();
    const outside = join(tempDir(), 'shared-prompt.md');
    writeFileSync(outside, 'shared by several projects');
    createRalphLayout(dir, { projectName: 'p' });
    rmSync(join(dir, '.ralph/PROMPT.md'));
    symlinkSync(outside, join(dir, '.ralph/PROMPT.md'));
    const result = createRalphLayout(dir, { projectName: 'p', force: true });
    expect(result.backups).toEqual(['.ralph/PROMPT.md.bak']);
    expect(lstatSync(join(dir, '.ralph/PROMPT.md.bak')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, '.ralph/PROMPT.md')).isFile()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('shared by several projects');
  });

  it('merges Ralph entries into an existing .gitignore when asked', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
    const result = createRalphLayout(dir, { projectName: 'p', gitignore: 'merge' });
    expect(result.updated).toEqual(['.gitignore']);
    const text = read(dir, '.gitignore');
    expect(text.startsWith('node_modules/\n\n')).toBe(true);
    expect(text).toContain(`${MERGE_HEADER}\n.ralph/logs/\n`);
    expect(createRalphLayout(dir, { projectName: 'p', gitignore: 'merge' }).skipped).toContain('.gitignore');
  });

  it('puts chosen settings into an existing .ralphrc (mode kept) but proposals only into a new one', () => {
    const fresh = tempDir();
    createRalphLayout(fresh, {
      projectName: 'p',
      ralphrcSettings: [{ key: 'MAX_CALLS_PER_HOUR', value: '42' }],
      ralphrcProposals: [{ key: 'VERIFY_COMMAND', value: 'npm test', commented: true, note: ['proposed'] }],
    });
    expect(rcValue(fresh, 'MAX_CALLS_PER_HOUR')).toBe('42');
    expect(rcValue(fresh, 'VERIFY_COMMAND')).toBeUndefined();
    expect(read(fresh, '.ralphrc')).toContain('# proposed\n# VERIFY_COMMAND="npm test"\n');

    const existing = tempDir();
    writeFileSync(join(existing, '.ralphrc'), '# mine\nMAX_CALLS_PER_HOUR=7\n', { mode: 0o640 });
    const result = createRalphLayout(existing, {
      projectName: 'p',
      ralphrcSettings: [{ key: 'VERIFY_COMMAND', value: 'pytest -q' }],
      ralphrcProposals: [{ key: 'CLAUDE_MODEL', value: 'x' }],
    });
    expect(result.updated).toEqual(['.ralphrc']);
    expect(read(existing, '.ralphrc')).toBe('# mine\nMAX_CALLS_PER_HOUR=7\nVERIFY_COMMAND="pytest -q"\n');
    expect(statSync(join(existing, '.ralphrc')).mode & 0o777).toBe(0o640);
  });

  it('reports a missing required file', () => {
    const dir = tempDir();
    createRalphLayout(dir, { projectName: 'p' });
    rmSync(join(dir, '.ralph/AGENT.md'));
    expect(missingProjectFiles(dir)).toEqual(['.ralph/AGENT.md']);
    expect(missingProjectFiles(tempDir())).toEqual(['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/AGENT.md', '.ralphrc']);
  });

  it('refuses a layout where .ralph is a file, saying so', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.ralph'), 'oops');
    expect(() => createRalphLayout(dir, { projectName: 'p' })).toThrow(/cannot create the folder/);
  });
});
