// `ralph --events [FILE]`: every LoopEvent of a real run as one JSON line, to stdout (the
// terminal lines stay on stderr) or to a new file; each line fits the published schema, no
// secret value is in it, and a path Ralph must not write is refused (exit 2). Needs `npm run build`.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedSchema, schemaProblems } from '../helpers/json-schema.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, statusBlock } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const SECRET = 'ghp_EVENTSsecret00000000000000000000042';
const schema = publishedSchema('loop-event.schema.json');

/** A project whose agent says the secret and works twice; its verify command passes. */
function project(): string {
  const dir = ralphProject({ ralphrc: 'VERIFY_COMMAND="true"\n' });
  writeMockScript(
    dir,
    [1, 2].map((n) => ({
      output: `Step ${n}, with the token ${SECRET}.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
      files: { [`src/step-${n}.txt`]: String(n) },
    })),
  );
  return dir;
}

const RUN = ['--backend', 'mock', '--pause', '0', '--max-loops', '2'];
const env = (): Record<string, string> => cleanEnv({ GITHUB_TOKEN: SECRET });

function checkLines(text: string): Array<Record<string, unknown>> {
  expect(text.endsWith('\n')).toBe(true);
  expect(text).not.toContain(SECRET);
  const events = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const event of events) expect(schemaProblems(schema, event), JSON.stringify(event).slice(0, 300)).toEqual([]);
  const types = events.map((e) => e['type']);
  expect(types[0]).toBe('loop.start');
  expect(types.at(-1)).toBe('loop.exit');
  for (const type of ['iteration.start', 'call.start', 'agent.result', 'analysis', 'verify.result', 'iteration.end', 'status', 'loop.stop'])
    expect(types).toContain(type);
  expect(events.at(-1)).toMatchObject({ reason: 'max_loops', exitCode: 7, iterations: 2 });
  return events;
}

describe('ralph --events', () => {
  it('alone: the events on stdout, one JSON line each, fitting the schema and redacted; the terminal lines on stderr', async () => {
    const dir = project();
    const r = await ralph([...RUN, '--events'], dir, env());
    expect(r.exitCode).toBe(7);
    // The runner strips the output's last newline; the file case sees every line end.
    const events = checkLines(`${r.stdout}\n`);
    expect(JSON.stringify(events)).toContain('[REDACTED');
    expect(r.stderr).toContain('Exit reason: max_loops');
  });

  it('FILE: a new file holds the same lines; stdout stays empty', async () => {
    const dir = project();
    const r = await ralph([...RUN, '--events', 'events.ndjson'], dir, env());
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('');
    checkLines(readFileSync(join(dir, 'events.ndjson'), 'utf8'));
  });

  it('refuses an existing file, a link, a missing folder, an empty name and a command that runs no loop (exit 2), and writes nothing', async () => {
    const dir = project();
    const elsewhere = join(tempDir('ralph-events-target-'), 'target.txt');
    writeFileSync(elsewhere, 'keep me\n');
    writeFileSync(join(dir, 'old.ndjson'), 'earlier run\n');
    symlinkSync(elsewhere, join(dir, 'link.ndjson'));
    symlinkSync(join(dir, 'nowhere', 'x'), join(dir, 'dangling.ndjson'));
    mkdirSync(join(dir, 'folder.ndjson'));
    const cases: Array<[string[], RegExp]> = [
      [['--events', 'old.ndjson'], /old\.ndjson already exists/],
      [['--events', 'link.ndjson'], /link\.ndjson already exists/],
      [['--events', 'dangling.ndjson'], /dangling\.ndjson already exists/],
      [['--events', 'missing/events.ndjson'], /the folder of .*missing\/events\.ndjson does not exist/],
      [['--events', 'folder.ndjson'], /folder\.ndjson (already exists|is a folder)/],
      [['--events', ' '], /--events needs a file name/],
      [['--events', 'e.ndjson', '--status'], /--events goes with a loop run/],
    ];
    for (const [args, message] of cases) {
      const r = await ralph([...RUN, ...args], dir, env());
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep me\n');
    expect(readFileSync(join(dir, 'old.ndjson'), 'utf8')).toBe('earlier run\n');
    expect(existsSync(join(dir, 'e.ndjson'))).toBe(false);
    expect(existsSync(join(dir, '.ralph', 'status.json'))).toBe(false);
  });

  it('a run refused before its loop began leaves no empty file behind', async () => {
    const dir = tempDir('ralph-not-a-project-');
    const r = await ralph(['--backend', 'mock', '--events', 'events.ndjson'], dir, env());
    expect(r.exitCode).not.toBe(0);
    expect(existsSync(join(dir, 'events.ndjson'))).toBe(false);
  });
});
