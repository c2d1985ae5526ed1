import { defineConfig } from 'vitest/config';

// Three tiers: `unit` runs in-process in seconds (npm run test:unit); `integration`
// and `e2e` spawn the built commands, real git and tmux, so they build dist/ first
// when it is stale; `integration` also drives the real agent CLIs, installed into
// tests/agent-clis/ first when missing. `npm test` runs all three.
const BUILD_FIRST = ['tests/setup/build-dist.ts'];
const AGENT_CLIS = ['tests/setup/agent-clis.ts'];
/**
 * The spawning tiers wait on real processes (an agent CLI starts in seconds on an idle machine),
 * so their limits are sized for a busy two-core laptop, not for an idle one: a test that is
 * slow there is not failing.
 */
const SPAWNING_TIMEOUT = 120_000;

export default defineConfig({
  test: {
    restoreMocks: true,
    clearMocks: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn real processes and git; two cores on CI machines.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: [...BUILD_FIRST, ...AGENT_CLIS],
          testTimeout: SPAWNING_TIMEOUT,
          hookTimeout: SPAWNING_TIMEOUT,
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], globalSetup: BUILD_FIRST, testTimeout: SPAWNING_TIMEOUT, hookTimeout: SPAWNING_TIMEOUT },
      },
    ],
  },
});
