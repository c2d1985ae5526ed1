import { defineAgent } from '../agent-declaration.js';
import { CODEX_SANDBOX } from './codex-sandbox.js';

/** OpenAI's Codex CLI, as Ralph knows it before loading its code. */
export const CODEX_AGENT = defineAgent({
  name: 'codex',
  displayName: 'Codex CLI',
  about: "OpenAI's Codex CLI",
  // Cost is estimated from tokens × list price (Codex reports tokens only) when the model is known and listed.
  capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: false, quotaWindows: 'percent' },
  instructionsFile: 'AGENTS.md',
  deniedAdvice: [
    "Codex CLI's own sandbox refused them: CODEX_EXTRA_ARGS chose its",
    'sandbox mode, and ALLOWED_TOOLS does not apply to Codex. Give it the',
    'access the work needs there, for example to write in the project:',
    '  CODEX_EXTRA_ARGS="--sandbox workspace-write"',
    'or leave the sandbox mode out, and Codex runs as Ralph runs every agent.',
  ],
  install: 'npm install -g @openai/codex',
  sandbox: CODEX_SANDBOX,
  // Codex's own sandbox in its read-only mode: commands run, but nothing they do is written.
  readOnly: { about: '--sandbox read-only, without the bypass of approvals and sandbox' },
  login: 'log in with `codex login` (or set OPENAI_API_KEY)',
  settings: {
    command: { field: 'codexCommand', key: 'CODEX_CMD', default: ['codex'], doc: 'Command that runs the Codex CLI' },
    model: { field: 'codexModel', key: 'CODEX_MODEL', doc: 'Model of the Codex CLI (empty = its default)' },
    effort: { field: 'codexEffort', key: 'CODEX_REASONING_EFFORT', doc: 'Reasoning effort of the Codex CLI (empty = its default)' },
    extraArgs: { field: 'codexExtraArgs', key: 'CODEX_EXTRA_ARGS', doc: 'Arguments added to every Codex CLI call' },
    minVersion: { field: 'codexMinVersion', key: 'CODEX_MIN_VERSION', default: '0.169.0', doc: 'Oldest Codex CLI version Ralph runs with' },
  },
  load: async () => (await import('./create-codex-backend.js')).codexModule,
});
