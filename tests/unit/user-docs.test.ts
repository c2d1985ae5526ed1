// The README and the user documentation speak Ralph's own words, and the
// README keeps the two set-up commands CI and users copy.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FOREIGN = /\bseeds?\b|\bseed's\b|U§|spec §|P§/i;
/** Words that are parameter names of the agent tools may appear in backticks only. */
const BARE_CONTRACT_WORD = /(?<![`\w"-])(scratchpad|hats?)(?![`\w"])/i;

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
// architecture.md is for people changing Ralph and points at the design documents on purpose.
const userDocs = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md') && f !== 'architecture.md')
  .map((f) => [`docs/${f}`, readFileSync(join(ROOT, 'docs', f), 'utf8')] as const);

describe('README and user docs', () => {
  it('keep the two set-up commands exactly', () => {
    expect(readme).toContain('\n./install.sh && ~/.local/bin/ralph demo\n');
    expect(readme).toContain('\nnpm test\n');
  });

  it.each([['README.md', readme] as const, ...userDocs])('%s uses no words of the design documents', (_name, text) => {
    expect(text.split('\n').filter((l) => FOREIGN.test(l))).toEqual([]);
  });

  it.each([['README.md', readme] as const, ...userDocs])('%s names the tool parameters only as parameters', (_name, text) => {
    const prose = text.replace(/```[\s\S]*?```/g, '');
    expect(prose.split('\n').filter((l) => BARE_CONTRACT_WORD.test(l))).toEqual([]);
  });

  it('README is for people using Ralph; the agent tools reference lives in docs/', () => {
    expect(readme).toContain('docs/test-tools-and-mcp.md');
    expect(readme).not.toContain('### The tools');
    expect(readme.split('\n').length).toBeLessThan(400);
  });

  it('README says what a task without a verify command does', () => {
    expect(readme).not.toContain('Without `loop:true` the task gets one attempt');
    expect(readme).toMatch(/Without a verify command/);
  });
});
