import { defineAgent } from '../agent-declaration.js';

/** The scripted agent of tests and `ralph demo`: it runs no CLI, so it has no settings and needs no sandbox. */
export const MOCK_AGENT = defineAgent({
  name: 'mock',
  displayName: 'mock agent',
  about: 'scripted',
  capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: false, quotaWindows: 'status' },
  sandbox: { configDirs: [], hosts: [], baseUrlVariables: [] },
  settings: undefined,
  load: async () => ({ create: (await import('./mock-backend.js')).createMockBackend }),
});
