import { defineConfig } from 'vitest/config';

// Three tiers: `unit` runs in-process in seconds (npm run test:unit); `integration`
// and `e2e` spawn the built commands, real git and tmux, so they build dist/ first
// when it is stale. `npm test` runs all three.
const BUILD_FIRST = ['tests/setup/build-dist.ts'];

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
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], globalSetup: BUILD_FIRST } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], globalSetup: BUILD_FIRST } },
    ],
  },
});
