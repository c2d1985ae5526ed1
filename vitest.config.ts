import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    restoreMocks: true,
    clearMocks: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn real processes and git; two cores on CI machines.
    pool: 'forks',
    maxWorkers: 2,
  },
});
