import { describe, expect, it } from 'vitest';
import { done, loopHarness, working } from './support/loop-harness.js';

describe('runLoop: why the loop ends', () => {
  it('max_loops: records one iteration after another, then the exit (exit 7)', async () => {
    const h = loopHarness({ responses: [working(), working(), working()], config: { maxLoops: 2 } });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'max_loops', exitCode: 7, loops: 2 });
    expect(h.recorded()).toEqual([
      'loop.start',
      'iteration.start',
      'agent.result',
      'analysis',
      'iteration.end',
      'iteration.start',
      'agent.result',
      'analysis',
      'iteration.end',
      'loop.exit',
    ]);
    expect(h.of('loop.stop')).toEqual([expect.objectContaining({ reason: 'max_loops', detail: 'reached --max-loops 2' })]);
  });

  it('project_complete: the agent says EXIT_SIGNAL: true after doing work (exit 0)', async () => {
    const h = loopHarness({ responses: [working(), done(), done()] });
    const result = await h.run();
    expect(result).toMatchObject({ reason: 'project_complete', exitCode: 0 });
    expect(h.store.sessionResets).toEqual(['project_complete']);
  });
});
