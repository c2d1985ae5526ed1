import { defineAgent } from '../agent-declaration.js';
import { OPENCODE_SANDBOX } from './opencode-sandbox.js';

/** OpenCode, as Ralph knows it before loading its code. */
export const OPENCODE_AGENT = defineAgent({
  name: 'opencode',
  displayName: 'OpenCode',
  about: 'real OpenCode',
  capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: true },
  instructionsFile: 'AGENTS.md',
  install: 'npm install -g opencode-ai',
  sandbox: OPENCODE_SANDBOX,
  // Permissions that keep reading and searching and deny edit, bash and the web.
  readOnly: { about: 'OPENCODE_PERMISSION with edit, bash, webfetch and websearch denied', tools: ['Read', 'Glob', 'Grep'] },
  login: 'log in to your model provider with `opencode auth login`',
  settings: {
    command: { field: 'opencodeCommand', key: 'OPENCODE_CMD', default: ['opencode'], doc: 'Command that runs OpenCode' },
    model: { field: 'opencodeModel', key: 'OPENCODE_MODEL', doc: 'Model of OpenCode as provider/model (empty = its default)' },
    extraArgs: { field: 'opencodeExtraArgs', key: 'OPENCODE_EXTRA_ARGS', doc: 'Arguments added to every OpenCode call' },
    minVersion: { field: 'opencodeMinVersion', key: 'OPENCODE_MIN_VERSION', default: '1.18.33', doc: 'Oldest OpenCode version Ralph runs with' },
  },
  load: async () => (await import('./create-opencode-backend.js')).opencodeModule,
});
