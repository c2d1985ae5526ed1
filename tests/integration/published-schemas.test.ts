// Files a real loop wrote, checked against the JSON Schemas Ralph publishes for
// other tools and against the schemas Ralph itself reads them with: a reader
// keeps every field exactly as the writer wrote it (nothing is "repaired").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sessionEventSchema } from '../../src/state/documents/session-event.js';
import { statusSchema } from '../../src/state/documents/status.js';
import { publishedSchema, schemaProblems } from '../helpers/json-schema.js';
import { ralphProject, writeMockScript } from '../helpers/ralph-project.js';
import { cleanEnv, ralph, readJson, statusBlock } from '../helpers/run-cli.js';

describe('published schemas against a real run', () => {
  it('status.json and every session.jsonl line fit both schemas as written', async () => {
    const dir = ralphProject({ ralphrc: 'VERIFY_COMMAND="true"\n' });
    writeMockScript(
      dir,
      [1, 2].map((n) => ({
        output: `Step ${n}.\n${statusBlock({ STATUS: 'IN_PROGRESS', EXIT_SIGNAL: 'false' })}`,
        files: { [`src/step-${n}.txt`]: String(n) },
      })),
    );
    const r = await ralph(['--backend', 'mock', '--pause', '0', '--max-loops', '2'], dir, cleanEnv());
    expect(r.exitCode).toBe(7);

    const status = readJson(join(dir, '.ralph', 'status.json'));
    expect(schemaProblems(publishedSchema('status.schema.json'), status)).toEqual([]);
    expect(v.parse(statusSchema, status)).toEqual(status);
    expect(status['verify']).not.toBeNull();
    expect(status['last_iteration']).not.toBeNull();

    const lines = readFileSync(join(dir, '.ralph', 'logs', 'session.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    const events = publishedSchema('session-event.schema.json');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      expect(schemaProblems(events, line)).toEqual([]);
      expect(v.parse(sessionEventSchema, line)).toEqual(line);
    }
  });
});
