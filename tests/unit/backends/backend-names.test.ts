import { describe, expect, it } from 'vitest';
import { AGENTS, BACKEND_NAMES } from '../../../src/backends/agents.js';

describe('the backend names the settings know', () => {
  it('are the registered agents’ names, in their order (help texts list them so)', () => {
    expect([...BACKEND_NAMES]).toEqual(AGENTS.map((agent) => agent.name));
  });
});
