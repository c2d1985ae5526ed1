import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES } from '../../../src/config/backend-names.js';
import { BACKENDS } from '../../../src/backends/registry.js';

describe('the backend names the settings know', () => {
  it('are the registry’s entries, in its order (help texts list them so)', () => {
    expect([...BACKEND_NAMES]).toEqual(Object.keys(BACKENDS));
  });
});
