import { describe, expect, it } from 'vitest';
import { forPeople } from '../../../src/cli/commands/observe-commands.js';

describe('ralph --inspect output', () => {
  it('leaves out the agent-role fields of the test tool shape in the summary', () => {
    expect(forPeople({ total_events: 3, by_type: { a: 3 }, by_topic: { a: 3 }, iterations: 1, hats_used: [], duration_secs: 2 })).toEqual({
      total_events: 3,
      by_type: { a: 3 },
      by_topic: { a: 3 },
      iterations: 1,
      duration_secs: 2,
    });
  });

  it('leaves them out of the timeline', () => {
    expect(forPeople({ timeline: [{ iteration: 1, hat: 'ralph', events: ['iteration.start'], duration_ms: 5 }] })).toEqual({
      timeline: [{ iteration: 1, events: ['iteration.start'], duration_ms: 5 }],
    });
  });

  it('keeps the records of the json format as they are', () => {
    const json = { records: [{ ts: 1, event: 'loop.start', data: {} }], total_matched: 1, truncated: false };
    expect(forPeople(json)).toBe(json);
  });
});
