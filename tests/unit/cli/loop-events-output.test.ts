import { describe, expect, it } from 'vitest';
import { parseRalphArgs, type RalphArgs } from '../../../src/cli/ralph-args.js';
import { eventLine, redactEvent } from '../../../src/cli/loop/event-stream.js';
import { createRedactor } from '../../../src/core/secret-redactor.js';
import type { LoopEvent } from '../../../src/engine/loop-events.js';
import { UsageError } from '../../../src/errors.js';

const io = { out: () => undefined, err: () => undefined };

async function parse(...argv: string[]): Promise<RalphArgs> {
  const args = await parseRalphArgs(argv, '9.9.9', io);
  if (!args) throw new Error(`nothing parsed for ${argv.join(' ')}`);
  return args;
}

describe('--events on the command line', () => {
  it('alone is stdout, with a value that file, for ralph and ralph run', async () => {
    expect((await parse('--events')).events).toBe('-');
    expect((await parse('--events', '--max-loops', '2')).events).toBe('-');
    expect((await parse('--events', 'out.ndjson')).events).toBe('out.ndjson');
    expect((await parse('run', 'fix it', '--events', 'run.ndjson')).events).toBe('run.ndjson');
    expect((await parse('--events', 'top.ndjson', 'run', 'fix it')).events).toBe('top.ndjson');
    expect((await parse()).events).toBeUndefined();
  });

  it('an empty name is refused with what to give instead', async () => {
    const error = await parseRalphArgs(['--events', ''], '9.9.9', io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('--events needs a file name');
  });
});

describe('events leaving Ralph', () => {
  const secret = 'ghp_UNITsecret000000000000000000000001';
  const redactor = createRedactor([{ name: 'GITHUB_TOKEN', value: secret }]);

  it('every string in an event is redacted, however deep and whatever JSON would escape around it', () => {
    const event: LoopEvent = { type: 'notice', code: 'call.failed', message: `"quoted" ${secret}\n`, outputLogPath: `/tmp/${secret}` };
    const redacted = redactEvent(event, redactor);
    expect(JSON.stringify(redacted)).not.toContain(secret);
    expect(redacted).toMatchObject({ type: 'notice', code: 'call.failed' });
    expect(event.message).toContain(secret);
    const line = eventLine({ type: 'loop.crash', iterations: 1, message: secret }, redactor);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.split('\n')).toHaveLength(2);
    expect(line).not.toContain(secret);
  });

  it('an event without a secret is handed on as it is, not copied', () => {
    const event: LoopEvent = { type: 'iteration.start', iteration: 3 };
    expect(redactEvent(event, redactor)).toBe(event);
  });
});
