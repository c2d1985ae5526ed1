import { describe, expect, it } from 'vitest';
import { parseRalphArgs, type RalphArgs } from '../../../src/cli/ralph-args.js';
import { UsageError } from '../../../src/errors.js';

function capture(): { out: string[]; io: { out(t: string): void; err(t: string): void } } {
  const out: string[] = [];
  return { out, io: { out: (t) => out.push(t), err: () => undefined } };
}

async function parse(...argv: string[]): Promise<RalphArgs> {
  const args = await parseRalphArgs(argv, '9.9.9', capture().io);
  if (!args) throw new Error(`nothing parsed for ${argv.join(' ')}`);
  return args;
}

async function refusal(...argv: string[]): Promise<UsageError> {
  const error = await parseRalphArgs(argv, '9.9.9', capture().io).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('parseRalphArgs: argv → what ralph does', () => {
  it('no flags runs the loop with nothing overridden', async () => {
    expect(await parse()).toEqual({
      action: 'loop',
      flags: {},
      json: false,
      dryRun: false,
      inspect: { format: 'summary', events: [], topics: [], limit: 100 },
    });
  });

  it.each([
    [['--status'], 'status'],
    [['-s'], 'status'],
    [['--circuit-status'], 'circuit-status'],
    [['--reset-circuit'], 'reset-circuit'],
    [['--reset-session'], 'reset-session'],
    [['--config'], 'config'],
    [['--stop'], 'stop'],
    [['--gate-action', 'skip'], 'gate-action'],
    [['--checkpoints'], 'checkpoints'],
    [['--restore', 'abc123'], 'restore'],
    [['--rollback'], 'rollback'],
    [['--inspect'], 'inspect'],
    [['--monitor'], 'monitor'],
    [['-m'], 'monitor'],
  ])('%j → %s', async (argv, action) => {
    expect((await parse(...argv)).action).toBe(action);
  });

  it('--json and --dry-run are carried along', async () => {
    expect(await parse('--status', '--json')).toMatchObject({ action: 'status', json: true });
    expect(await parse('--dry-run')).toMatchObject({ action: 'loop', dryRun: true });
  });

  it('two actions at once are refused, naming both', async () => {
    const error = await refusal('--status', '--stop');
    expect(error.message).toBe('choose one of --status, --stop');
  });

  it('--gate-action takes retry, skip or abort only', async () => {
    expect((await parse('--gate-action', 'abort')).gateAction).toBe('abort');
    expect((await refusal('--gate-action', 'later')).message).toContain("argument 'later' is invalid");
  });

  it('--restore, --rollback and --force', async () => {
    expect(await parse('--restore', 'cp-1', '--force')).toMatchObject({ action: 'restore', restoreId: 'cp-1', force: true });
    const list = await parse('--rollback');
    expect(list.action).toBe('rollback');
    expect(list.rollbackTarget).toBeUndefined();
    expect(await parse('--rollback', 'cp-2')).toMatchObject({ action: 'rollback', rollbackTarget: 'cp-2' });
  });

  it('--prune belongs to --checkpoints', async () => {
    expect(await parse('--checkpoints', '--prune')).toMatchObject({ action: 'checkpoints', prune: true });
    expect((await refusal('--prune')).message).toBe('--prune goes with --checkpoints (ralph --checkpoints --prune).');
  });

  it('--inspect filters: repeatable events and topics, iteration bounds, payload, limit, format', async () => {
    const args = await parse(
      '--inspect',
      '--format',
      'timeline',
      '--event',
      'loop.start',
      '--event',
      'loop.exit',
      '--topic',
      'verify.*',
      '--after-iteration',
      '2',
      '--before-iteration',
      '5',
      '--payload',
      'npm',
      '--limit',
      '7',
    );
    expect(args.inspect).toEqual({
      format: 'timeline',
      events: ['loop.start', 'loop.exit'],
      topics: ['verify.*'],
      afterIteration: 2,
      beforeIteration: 5,
      payloadPattern: 'npm',
      limit: 7,
    });
  });

  it.each([
    [['--inspect', '--limit', 'ten'], 'invalid value for --limit: "ten"; expected a whole number'],
    [['--inspect', '--after-iteration', '-1'], 'invalid value for --after-iteration: "-1"; expected a whole number'],
    [['--inspect', '--format', 'xml'], "argument 'xml' is invalid"],
  ])('%j is a usage error', async (argv, message) => {
    expect((await refusal(...argv)).message).toContain(message);
  });

  it('ralph run <task>: the task, its own flags, and loop flags given before or after it', async () => {
    const args = await parse('--max-loops', '4', 'run', 'fix the tests', '--allow-no-git', '--verify', 'npm test');
    expect(args).toMatchObject({ action: 'loop', task: 'fix the tests', allowNoGit: true, flags: { maxLoops: '4', verifyCommand: 'npm test' } });
    expect(await parse('--dry-run', 'run', 't')).toMatchObject({ task: 't', dryRun: true });
    expect(await parse('run', 't', '--dry-run')).toMatchObject({ task: 't', dryRun: true });
  });

  it('ralph run without a task is a usage error that points at run --help', async () => {
    const error = await refusal('run');
    expect(error.message).toBe("missing required argument 'task'");
    expect(error.hint).toBe('Run ralph run --help to see every option.');
  });

  it('ralph demo [--keep]', async () => {
    expect(await parse('demo')).toMatchObject({ action: 'demo', keep: false });
    expect(await parse('demo', '--keep')).toMatchObject({ action: 'demo', keep: true });
  });

  it('ralph test <tool>: parameters from flags, integers checked', async () => {
    const args = await parse('test', 'run', '--workspace-id', 'w1', '--max-iterations', '3', '--preserve-session', '--strict', '--input', '-');
    expect(args.action).toBe('test');
    expect(args.test).toEqual({ tool: 'run', strict: true, input: '-', params: { workspace_id: 'w1', max_iterations: 3, preserve_session: true } });
    expect((await refusal('test', 'run', '--max-iterations', 'many')).message).toBe('invalid value for --max-iterations: "many"; expected a whole number');
  });

  it('ralph mcp', async () => {
    expect((await parse('mcp')).action).toBe('mcp');
  });

  it('an unknown flag is a usage error with the one hint every command gives', async () => {
    const error = await refusal('--frobnicate');
    expect(error).toMatchObject({ message: "unknown option '--frobnicate'", hint: 'Run ralph --help to see every option.', exitCode: 2 });
  });

  it('--help and --version print on stdout and parse to nothing', async () => {
    for (const flag of ['--help', '--version']) {
      const c = capture();
      expect(await parseRalphArgs([flag], '9.9.9', c.io)).toBeUndefined();
      expect(c.out.join('')).toMatch(flag === '--help' ? /Exit codes:/ : /^9\.9\.9\n$/);
    }
  });
});
