import { defineAgent } from '../agent-declaration.js';

/** The scripted agent of tests and `ralph demo`: it runs no CLI, so it has no settings and needs no sandbox. */
export const MOCK_AGENT = defineAgent({
  name: 'mock',
  displayName: 'mock agent',
  about: 'scripted',
  capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: false, quotaWindows: 'status' },
  sandbox: { configDirs: [], hosts: [], baseUrlVariables: [] },
  readOnly: { about: 'a scripted response with file effects (files, check_tasks, commit) is refused and changes nothing' },
  settings: undefined,
  load: async () => ({ create: (await import('./mock-backend.js')).createMockBackend }),
});
