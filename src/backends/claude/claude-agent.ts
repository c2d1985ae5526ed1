import { defineAgent } from '../agent-declaration.js';
import { CLAUDE_SANDBOX } from './claude-sandbox.js';

/** Claude Code, as Ralph knows it before loading its code. */
export const CLAUDE_AGENT = defineAgent({
  name: 'claude',
  displayName: 'Claude Code',
  about: 'real Claude Code',
  capabilities: { resume: true, cost: true, liveView: true, permissionDenials: true, usageLimits: true, allowedTools: true, quotaWindows: 'status' },
  instructionsFile: 'CLAUDE.md',
  install: 'npm install -g @anthropic-ai/claude-code',
  sandbox: CLAUDE_SANDBOX,
  // A read-only call lists only the reading tools and refuses every writing one outright, so neither
  // the user's settings nor a permission mode in CLAUDE_EXTRA_ARGS lets it write; no Bash at all:
  // even `git diff --output=FILE` writes.
  readOnly: {
    about: '--allowedTools Read Glob Grep --disallowedTools Write Edit MultiEdit NotebookEdit Bash',
    tools: ['Read', 'Glob', 'Grep'],
    deniedTools: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash'],
  },
  login: 'log in by running `claude` once (or set ANTHROPIC_API_KEY)',
  // The unprefixed `model` and `effort` fields are Claude Code's: it was Ralph's only agent once.
  settings: {
    command: { field: 'claudeCommand', key: 'CLAUDE_CODE_CMD', default: ['claude'], doc: 'Command that runs Claude Code' },
    model: { field: 'model', key: 'CLAUDE_MODEL', doc: 'Model of Claude Code, passed as --model (empty = its default)' },
    effort: { field: 'effort', key: 'CLAUDE_EFFORT', doc: 'Effort of Claude Code, passed as --effort (empty = its default)' },
    extraArgs: { field: 'claudeExtraArgs', key: 'CLAUDE_EXTRA_ARGS', doc: 'Arguments added to every Claude Code call' },
    minVersion: { field: 'claudeMinVersion', key: 'CLAUDE_MIN_VERSION', default: '2.0.76', doc: 'Oldest Claude Code version Ralph runs with' },
  },
  load: async () => (await import('./create-claude-backend.js')).claudeModule,
});
