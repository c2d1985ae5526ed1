import { defineAgent } from '../agent-declaration.js';
import { GEMINI_SANDBOX } from './gemini-sandbox.js';

/** Google's Gemini CLI, as Ralph knows it before loading its code. */
export const GEMINI_AGENT = defineAgent({
  name: 'gemini',
  displayName: 'Gemini CLI',
  about: 'Google Gemini CLI',
  // Cost is estimated from tokens × list price (Gemini reports tokens only) when the model is listed.
  capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: true },
  instructionsFile: 'GEMINI.md',
  install: 'npm install -g @google/gemini-cli',
  sandbox: GEMINI_SANDBOX,
  // The default approval mode (headless: every tool that would ask is refused) with a policy that
  // allows only the reading tools and denies the writing ones and the shell above anything else.
  readOnly: {
    about: '--approval-mode default with a policy allowing only the read tools and denying write_file, replace and run_shell_command',
    tools: ['Read', 'LS', 'Glob', 'Grep'],
    deniedTools: ['Write', 'Edit', 'Bash'],
  },
  login: 'log in by running `gemini` once (or set GEMINI_API_KEY)',
  settings: {
    command: { field: 'geminiCommand', key: 'GEMINI_CMD', default: ['gemini'], doc: 'Command that runs the Gemini CLI' },
    model: { field: 'geminiModel', key: 'GEMINI_MODEL', doc: 'Model of the Gemini CLI (empty = its default)' },
    extraArgs: { field: 'geminiExtraArgs', key: 'GEMINI_EXTRA_ARGS', doc: 'Arguments added to every Gemini CLI call' },
    minVersion: { field: 'geminiMinVersion', key: 'GEMINI_MIN_VERSION', default: '0.61.0', doc: 'Oldest Gemini CLI version Ralph runs with' },
  },
  load: async () => (await import('./create-gemini-backend.js')).geminiModule,
});
