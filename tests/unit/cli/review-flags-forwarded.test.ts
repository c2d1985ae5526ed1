import { describe, expect, it } from 'vitest';
import { configFlagsToArgv } from '../../../src/cli/forward-flags.js';
import { parseRalphArgs } from '../../../src/cli/ralph-args.js';

const io = { out: () => undefined, err: () => undefined };

describe('--review in task mode and the queue', () => {
  it('`ralph queue run --review …` hands the reviewer flags to every item’s `ralph run`', async () => {
    const args = await parseRalphArgs(['queue', 'run', '--review', '--review-backend', 'codex', '--review-model', 'gpt-5', '--review-max', '2'], '9.9.9', io);
    const flags = args?.queue?.sub === 'run' ? args.queue.run.flags : undefined;
    expect(flags).toEqual({ review: true, reviewBackend: 'codex', reviewModel: 'gpt-5', reviewMax: '2' });
    expect(configFlagsToArgv(flags ?? {})).toEqual(['--review', '--review-backend', 'codex', '--review-model', 'gpt-5', '--review-max', '2']);
  });

  it('`ralph run <task> --review` takes the reviewer flags', async () => {
    const args = await parseRalphArgs(['run', 'fix the bug', '--review', '--review-max', '1'], '9.9.9', io);
    expect(args?.flags).toMatchObject({ review: true, reviewMax: '1' });
  });
});

describe('the subscription-window flags and the queue', () => {
  it('`ralph queue run --park-at … --stop-at … --max-tokens …` hands them to every item’s `ralph run`', async () => {
    const args = await parseRalphArgs(['queue', 'run', '--park-at', 'warning:seven_day', '--stop-at', '90%', '--max-tokens', '2000000'], '9.9.9', io);
    const flags = args?.queue?.sub === 'run' ? args.queue.run.flags : undefined;
    expect(flags).toEqual({ parkAt: 'warning:seven_day', stopAt: '90%', maxTokens: '2000000' });
    expect(configFlagsToArgv(flags ?? {})).toEqual(['--park-at', 'warning:seven_day', '--stop-at', '90%', '--max-tokens', '2000000']);
  });
});
