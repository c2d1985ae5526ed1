import { describe, expect, it } from 'vitest';
import type { AgentBackend } from '../../../src/ports.js';
import { loopHarness, working } from './support/loop-harness.js';

describe('refusals of the sandbox', () => {
  it("become the iteration's sandbox.refused events, in session.jsonl's vocabulary", async () => {
    const h = loopHarness({ responses: [working(), working()], config: { maxLoops: 2 } });
    const inner = h.deps.backend;
    const refusing: AgentBackend = {
      name: inner.name,
      displayName: inner.displayName,
      describe: (request) => inner.describe(request),
      describeOutput: (request) => inner.describeOutput(request),
      run: async (request, signal) => {
        request.onRefusal?.({ kind: 'write', detail: `deny openat /home/u/loop-${request.loop}.txt` });
        return inner.run(request, signal);
      },
    };
    h.deps.backend = refusing;
    await h.run();
    expect(h.of('sandbox.refused')).toEqual([
      { type: 'sandbox.refused', iteration: 1, refusal: { kind: 'write', detail: 'deny openat /home/u/loop-1.txt' } },
      { type: 'sandbox.refused', iteration: 2, refusal: { kind: 'write', detail: 'deny openat /home/u/loop-2.txt' } },
    ]);
    expect(h.recorded().filter((name) => name === 'sandbox.refused')).toHaveLength(2);
  });
});
