import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentProgress } from '../../../src/agent-result.js';
import type { LoopEvent } from '../../../src/engine/loop-events.js';
import type { AgentBackend } from '../../../src/ports.js';
import { loopHarness, working } from './support/loop-harness.js';
import type { ManualClock } from './support/manual-clock.js';

/** One step of a scripted agent: it works `after` ms, then reports `event`. */
interface Step {
  after: number;
  event?: AgentProgress;
}

const TOOL: AgentProgress = { kind: 'tool_use', tool: 'Bash', argument: 'npm test' };
const TEXT: AgentProgress = { kind: 'message', text: 'Reading the plan.' };
const SESSION: AgentProgress = { kind: 'session_started', sessionId: 'sess-42' };

/**
 * The mock backend behind an agent that first works through `steps` on the loop's clock, and
 * notes in `timers` how many real timers are pending at each step (under fake timers).
 */
function scripted(backend: AgentBackend, clock: ManualClock, steps: readonly Step[], timers?: number[]): AgentBackend {
  return {
    name: backend.name,
    displayName: backend.displayName,
    describe: (request) => backend.describe(request),
    describeOutput: (request) => backend.describeOutput(request),
    run: async (request, signal) => {
      for (const step of steps) {
        await clock.sleep(step.after, signal);
        timers?.push(vi.getTimerCount());
        if (step.event) request.onProgress?.(step.event);
      }
      return backend.run(request, signal);
    },
  };
}

/** The call's events in words: the time of a beat counts from the call's start. */
function callEvents(events: readonly LoopEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === 'call.running' || e.type === 'call.end') return [e.type];
    if (e.type === 'call.tick') return [`tick +${e.now - e.startedAt}`];
    if (e.type === 'call.progress') return [`progress ${e.event.kind}`];
    return [];
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('runLoop: what the engine says while the agent works', () => {
  it.each<[string, Step[], string[]]>([
    ['a call shorter than a beat brings no beat', [{ after: 500, event: TEXT }], ['call.running', 'progress message', 'progress finished', 'call.end']],
    [
      'a beat each second the agent works, from the clock',
      [{ after: 2500, event: TOOL }],
      ['call.running', 'tick +1000', 'tick +2000', 'progress tool_use', 'progress finished', 'call.end'],
    ],
    [
      'beats and progress in the order they happen',
      [
        { after: 1000, event: SESSION },
        { after: 1500, event: TEXT },
        { after: 600, event: TOOL },
      ],
      [
        'call.running',
        'tick +1000',
        'progress session_started',
        'tick +2000',
        'progress message',
        'tick +3000',
        'progress tool_use',
        'progress finished',
        'call.end',
      ],
    ],
  ])('%s', async (_name, steps, expected) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    const h = loopHarness({ responses: [working()], config: { maxLoops: 1 } });
    const timers: number[] = [];
    h.deps.backend = scripted(h.deps.backend, h.clock, steps, timers);
    await h.run();
    expect(callEvents(h.events)).toEqual(expected);
    // No timer of its own: the beats come from the clock port only.
    expect(timers).toEqual(steps.map(() => 0));
  });

  it('stops the beat when the call ends, though the time goes on', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxLoops: 2, pauseSeconds: 30 } });
    h.deps.backend = scripted(h.deps.backend, h.clock, [{ after: 1200 }]);
    await h.run();
    expect(h.clock.sleeps).toContain(30_000);
    expect(callEvents(h.events)).toEqual([
      ...['call.running', 'tick +1000', 'progress finished', 'call.end'],
      ...['call.running', 'tick +1000', 'progress finished', 'call.end'],
    ]);
  });

  it("passes the backend's progress facts on as they are: the engine renders nothing", async () => {
    const h = loopHarness({ responses: [working()], config: { maxLoops: 1 } });
    const steps = [
      { after: 0, event: TOOL },
      { after: 0, event: TEXT },
    ];
    h.deps.backend = scripted(h.deps.backend, h.clock, steps);
    await h.run();
    const facts = h.of('call.progress').map((e) => e.event);
    expect(facts.slice(0, 2)).toEqual([TOOL, TEXT]);
    expect(facts[0]).toBe(TOOL);
    expect(h.of('call.progress').every((e) => e.iteration === 1)).toBe(true);
  });

  it('publishes the session the agent started while the call still runs', async () => {
    const h = loopHarness({ responses: [working()], config: { maxLoops: 1 } });
    h.deps.backend = scripted(h.deps.backend, h.clock, [{ after: 0, event: SESSION }]);
    await h.run();
    const at = h.events.findIndex((e) => e.type === 'call.progress' && e.event.kind === 'session_started');
    const status = h.events.slice(0, at).findLast((e) => e.type === 'status');
    expect(status?.type === 'status' && status.run.sessionId).toBe('sess-42');
  });
});

describe('runLoop: status events', () => {
  it('carry a frozen copy of the run state, which stays as it was when the loop goes on', async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxLoops: 2 } });
    await h.run();
    const snapshots = h.of('status').map((e) => e.run);
    expect(snapshots.length).toBeGreaterThan(2);
    for (const run of snapshots) {
      for (const part of [run, run.totals, run.circuit, run.rate, run.rate.calls]) expect(Object.isFrozen(part)).toBe(true);
    }
    expect(snapshots[0]).toMatchObject({ loop: 0, lastAction: 'starting' });
    expect(snapshots.at(-1)?.loop).toBe(2);
    expect(snapshots.at(-1)?.totals.calls).toBe(2);
    expect(snapshots.map((run) => run.totals.calls)).toContain(0);
    expect(() => {
      (snapshots[0] as { loop: number }).loop = 9;
    }).toThrow(TypeError);
  });
});
