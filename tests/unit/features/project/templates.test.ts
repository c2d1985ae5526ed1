import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, CONFIG_KEYS, defaultConfig } from '../../../../src/config/keys.js';
import { loadConfig } from '../../../../src/config/load-config.js';
import type { ValueType } from '../../../../src/config/value-types.js';
import { parseFixPlan } from '../../../../src/core/fix-plan.js';
import { parseStatusBlock } from '../../../../src/core/ralph-status-block.js';
import { ralphPaths, type RalphPaths } from '../../../../src/state/paths.js';
import { ralphrcTemplate, readTemplate, renderTemplate, TEMPLATE_NAMES, templatesDir } from '../../../../src/features/project/templates.js';
import { packageRoot, packageVersion } from '../../../../src/infra/package-info.js';
import { tempDir } from '../../../helpers/temp-dir.js';

describe('templatesDir', () => {
  it('finds the package root from the module location, with every template', () => {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { name: string; version: string };
    expect(pkg.name).toBe('ralph-ts');
    expect(packageVersion()).toBe(pkg.version);
    expect(templatesDir()).toBe(join(packageRoot(), 'templates'));
    for (const name of TEMPLATE_NAMES) expect(readTemplate(name).length).toBeGreaterThan(100);
  });
});

describe('renderTemplate', () => {
  it('fills placeholders and refuses unknown ones', () => {
    expect(renderTemplate('a {{X}} b {{X}} {{Y_Z}}', { X: '1', Y_Z: '2' })).toBe('a 1 b 1 2');
    expect(() => renderTemplate('{{MISSING}}', {})).toThrow(/MISSING/);
  });
});

/** The commented or active assignment line of `key` and the comment block right above it. */
function findKey(lines: string[], key: string): { value: string; docs: string } | undefined {
  const index = lines.findIndex((line) => new RegExp(`^(# )?${key}=`).test(line));
  if (index === -1) return undefined;
  const docs: string[] = [];
  for (let i = index - 1; i >= 0 && (lines[i] as string).startsWith('#'); i -= 1) docs.unshift(lines[i] as string);
  const line = (lines[index] as string).replace(/^# /, '');
  return { value: line, docs: docs.join('\n') };
}

describe('templates/ralphrc', () => {
  const text = ralphrcTemplate();
  const lines = text.split('\n');

  it.each(CONFIG_FIELDS.map((field) => [CONFIG_KEYS[field].key, field] as const))('documents %s with its default and doc', (key, field) => {
    const spec = CONFIG_KEYS[field] as { key: string; doc: string; default: unknown; type: ValueType<unknown> };
    const found = findKey(lines, key);
    expect(found, `${key} is missing from templates/ralphrc`).toBeDefined();
    const parsed = loadConfig({ ralphrc: { path: '.ralphrc', text: found?.value ?? '' }, env: {}, flags: {} });
    expect(parsed.errors).toEqual([]);
    // An empty value means "default" to the loader; compare it through the type instead.
    const raw = /=(.*)$/.exec(found?.value ?? '')?.[1] ?? '';
    const empty = raw === '""' || raw === '';
    if (!empty) expect(parsed.origins[field].source).toBe('ralphrc');
    const value = empty ? spec.type.parse('') : { ok: true, value: parsed.config[field] };
    expect(value).toEqual({ ok: true, value: spec.default });
    expect(found?.docs).toContain(spec.doc);
  });

  it('parses cleanly with every documented line switched on, giving the defaults', () => {
    const enabled = text.replace(/^# ([A-Z_]+=)/gm, '$1');
    const result = loadConfig({ ralphrc: { path: '.ralphrc', text: enabled }, env: {}, flags: {} });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.config).toEqual(defaultConfig());
  });
});

describe('templates/PROMPT.md', () => {
  const prompt = readTemplate('PROMPT.md');

  it('holds the exact RALPH_STATUS block with every field', () => {
    const block = /```\n(---RALPH_STATUS---[\s\S]*?---END_RALPH_STATUS---)\n```/.exec(prompt)?.[1];
    expect(block?.split('\n')).toEqual([
      '---RALPH_STATUS---',
      'STATUS: IN_PROGRESS | COMPLETE | BLOCKED',
      'TASKS_COMPLETED_THIS_LOOP: <number>',
      'FILES_MODIFIED: <number>',
      'TESTS_STATUS: PASSING | FAILING | NOT_RUN',
      'WORK_TYPE: IMPLEMENTATION | TESTING | DOCUMENTATION | REFACTORING',
      'EXIT_SIGNAL: false | true',
      'RECOMMENDATION: <one line: what should happen next>',
      '---END_RALPH_STATUS---',
    ]);
  });

  it('ends with examples the status parser reads, the last one being a completion', () => {
    const parsed = parseStatusBlock(prompt);
    expect(parsed?.exitSignal).toBe(true);
    expect(parsed?.status).toBe('COMPLETE');
  });

  it('protects Ralph files and states our stop rules', () => {
    expect(prompt).toContain('## Protected Files (DO NOT MODIFY)');
    expect(prompt).toContain('`.ralphrc`');
    expect(prompt).toMatch(/EXIT_SIGNAL: false` always keeps the loop going/);
    expect(prompt).toMatch(/two of the last five iterations/);
    expect(prompt).toMatch(/verify command/);
    expect(prompt).toMatch(/Three iterations in a row that only ran tests/);
    expect(prompt).toMatch(/3 iterations without progress/);
    expect(prompt).toMatch(/5 iterations that repeat the same error/);
    expect(prompt).toMatch(/Never ask questions/);
    expect(prompt.indexOf('## Protected Files')).toBeLessThan(prompt.indexOf('## Status Reporting (CRITICAL)'));
  });

  it('has the status section last, so it can be re-appended to a converted prompt', () => {
    const tail = prompt.slice(prompt.indexOf('## Status Reporting (CRITICAL)'));
    expect(tail.split('\n').filter((l) => /^## /.test(l))).toEqual(['## Status Reporting (CRITICAL)']);
    expect([...prompt.matchAll(/\{\{([A-Z_]+)\}\}/g)].map((m) => m[1]).sort()).toEqual(['PROJECT_NAME', 'PROJECT_TYPE']);
  });
});

describe('templates/fix_plan.md', () => {
  const plan = readTemplate('fix_plan.md');

  it('has the sections in order and a non-blocking Optional section', () => {
    const headings = plan.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual(['## High Priority', '## Medium Priority', '## Low Priority', '## Optional', '## Completed', '## Notes']);
    const summary = parseFixPlan(plan, CONFIG_KEYS.optionalSections.default);
    expect(summary.blockingUnchecked).toBeGreaterThan(0);
    expect(summary.optionalUnchecked).toBe(1);
    expect(summary.complete).toBe(false);
    expect(summary.tasks.filter((t) => t.checked).map((t) => t.section)).toEqual(['Completed']);
  });
});

describe('templates/AGENT.md', () => {
  const agent = readTemplate('AGENT.md');

  it('is short, has command placeholders and no push or coverage demands', () => {
    expect(agent.split('\n').length).toBeLessThan(50);
    expect([...agent.matchAll(/\{\{([A-Z_]+)\}\}/g)].map((m) => m[1])).toEqual(['INSTALL_COMMAND', 'BUILD_COMMAND', 'TEST_COMMAND', 'RUN_COMMAND']);
    expect(agent).toContain('## Key learnings');
    expect(agent).not.toMatch(/push|85%|coverage/i);
  });
});

describe('templates/gitignore', () => {
  const USER_FILES: readonly (keyof RalphPaths)[] = ['project', 'dir', 'prompt', 'fixPlan', 'agent', 'specs', 'ralphrc'];
  const DIRECTORIES: readonly (keyof RalphPaths)[] = ['logsDir'];
  /** The lock and the run file live in the git dir, out of the work tree: nothing to ignore. */
  const RUNTIME: readonly (keyof RalphPaths)[] = ['runtimeDir', 'lockTarget', 'lockFile', 'pidFile', 'runFile'];

  function ignoredPaths(root: string, paths: string[]): Set<string> {
    // Exit code 1 just means "none of them is ignored".
    const run = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: root, input: paths.join('\n'), encoding: 'utf8' });
    expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
    return new Set(run.stdout.split('\n').filter(Boolean));
  }

  it("ignores every Ralph state path and none of the user's files", () => {
    const root = tempDir('ralph-gitignore-');
    execFileSync('git', ['init', '-q'], { cwd: root });
    writeFileSync(join(root, '.gitignore'), readTemplate('gitignore'));
    const paths = ralphPaths(root);
    const state: string[] = [];
    for (const [key, path] of Object.entries(paths) as [keyof RalphPaths, string][]) {
      if (RUNTIME.includes(key)) {
        expect(relative(root, path).startsWith(`.git${sep}`)).toBe(true);
        continue;
      }
      if (USER_FILES.includes(key)) continue;
      if (DIRECTORIES.includes(key)) mkdirSync(path, { recursive: true });
      else {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, '{}');
      }
      state.push(relative(root, path));
    }
    state.push(
      '.ralph/logs/claude_output_2026-01-01_10-00-00.log',
      '.ralph/status.json.corrupt',
      '.ralph/.status.json.123.1.tmp',
      '.ralph/docs/generated/x.md',
      '.ralph/worktrees/t1/README.md',
      '.ralph/queue.json.lock',
    );
    expect(state.length).toBeGreaterThan(25);
    const ignored = ignoredPaths(root, state);
    expect(state.filter((p) => !ignored.has(p))).toEqual([]);

    const user = ['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/AGENT.md', '.ralph/specs/api.md', '.ralphrc', 'src/index.ts', 'README.md', '.env.example'];
    expect([...ignoredPaths(root, user).values()].filter((p) => user.includes(p))).toEqual([]);
  });
});

describe('ralphrcTemplate', () => {
  it('is templates/ralphrc as written while the template documents every key', () => {
    expect(ralphrcTemplate()).toBe(readTemplate('ralphrc'));
  });
});
