// The one table of Ralph's layers: which part of src/ may import which. `npm run lint` enforces
// it (eslint/layers.js builds the rule's options from it) and the layer section of
// docs/architecture.md is rendered from it (`node scripts/render-layer-doc.mjs` writes it, a unit
// test fails when the doc is not current). Change the layers here and nowhere else.
//
// Each layer lists the layers it may import, and only those: a layer not named is forbidden,
// value imports and type imports alike. Every file of src/ must belong to a layer, so a new
// folder is a new row here before it can import anything.

/**
 * Top to bottom, as docs/architecture.md draws them. `paths` are project-relative: a folder
 * (ending in `/`), one file, or a pattern of files where `<agent>` stands for one name, the same
 * wherever it appears (`src/backends/<agent>/<agent>-agent.ts`: each agent's declaration). `imports` are the other layers this one may import; a layer
 * always imports itself. `loads` are layers it may reach only through `import()`, evaluated when
 * called: how an agent's declaration loads its code, which stands above it.
 */
export const LAYER_TABLE = [
  {
    name: 'library',
    paths: ['src/library/'],
    imports: ['cli', 'engine', 'state', 'config', 'core', 'errors'],
    what: "`import { runLoop } from 'ralph-ts'`: the loop the command starts, for a program instead of a terminal",
  },
  {
    name: 'cli',
    paths: ['src/cli/'],
    imports: ['features', 'engine', 'backends', 'checkpoints', 'ui', 'infra', 'state', 'config', 'agents', 'ports', 'core', 'errors'],
    what: 'composition roots: argv, process.exit, the terminal; wires the real ports into the engine and the features',
  },
  {
    name: 'features',
    paths: ['src/features/'],
    imports: ['engine', 'backends', 'checkpoints', 'ui', 'infra', 'state', 'config', 'agents', 'ports', 'core', 'errors'],
    what: 'the product commands, taking parsed options (the agents’ verify tool runs the engine’s one verify attempt)',
  },
  {
    name: 'engine',
    paths: ['src/engine/'],
    imports: ['config', 'ports', 'core', 'errors'],
    what: 'the loop over its ports: decides and emits events, loads no implementation',
  },
  {
    name: 'backends',
    paths: ['src/backends/'],
    imports: ['infra', 'state', 'config', 'agents', 'ports', 'core', 'errors'],
    what: 'runs one agent CLI and turns its output into an AgentResult',
  },
  {
    name: 'checkpoints',
    paths: ['src/checkpoints/'],
    imports: ['infra', 'state', 'ports', 'core', 'errors'],
    what: 'the git checkpoints and rollbacks behind the checkpoint port',
  },
  {
    name: 'ui',
    paths: ['src/ui/'],
    imports: ['state', 'ports', 'core', 'errors'],
    what: 'the logger and the screens, lines and frames (string builders)',
  },
  {
    name: 'infra',
    paths: ['src/infra/'],
    imports: ['state', 'config', 'ports', 'core', 'errors'],
    what: 'processes, git, the sandbox, the run guard, the system clock',
  },
  {
    name: 'state',
    paths: ['src/state/'],
    imports: ['config', 'ports', 'core', 'errors'],
    what: 'the files under .ralph/ and the run files: documents, stores, logs, locks, safe reads',
  },
  {
    name: 'config',
    paths: ['src/config/'],
    imports: ['agents', 'core', 'errors'],
    what: "the key registry (each agent's keys made from its declaration), .ralphrc, flag > env > .ralphrc > default",
  },
  {
    name: 'agents',
    // Each agent's folder holds its declaration (and the sandbox facts it names) beside its code:
    // the declarations are data the settings are made from, so they stand below config.
    paths: ['src/backends/agents.ts', 'src/backends/agent-declaration.ts', 'src/backends/<agent>/<agent>-agent.ts', 'src/backends/<agent>/<agent>-sandbox.ts'],
    imports: ['core', 'errors'],
    loads: ['backends'],
    what: "each agent's declaration: its name, capabilities, settings and sandbox needs, data only; its code is loaded on demand",
  },
  {
    name: 'ports',
    paths: ['src/ports.ts'],
    imports: ['core', 'errors'],
    what: 'the interfaces the engine works through and state, infra and backends implement',
  },
  {
    name: 'core',
    paths: ['src/core/', 'src/agent-result.ts'],
    imports: ['errors'],
    what: 'pure decisions and data, and the neutral AgentResult: no files, processes, clock or terminal',
  },
  {
    name: 'errors',
    paths: ['src/errors.ts'],
    imports: [],
    what: 'RalphError and its exit codes',
  },
];

/** Packages that act on the world: files, processes, terminals, locks, the network. */
export const EFFECT_PACKAGES = ['chalk', 'ora', 'commander', 'proper-lockfile', '@modelcontextprotocol/sdk', '@octokit/rest', '@anthropic-ai/sandbox-runtime'];

/** Node builtins that read or change the machine, for layers that may still use pure ones. */
export const EFFECT_BUILTINS = [
  'node:fs',
  'node:child_process',
  'node:readline',
  'node:tty',
  'node:net',
  'node:http',
  'node:https',
  'node:worker_threads',
  'node:cluster',
  'node:dgram',
  'node:process',
  'node:os',
];

/** What a layer may not load from outside src/, beside the table above. */
export const PACKAGE_RULES = {
  core: {
    packages: EFFECT_PACKAGES,
    builtinsExcept: ['node:path', 'node:url'],
    why: 'src/core is pure: no files, processes, clock, terminal or network. Only string helpers like node:path are allowed.',
  },
  engine: {
    packages: [...EFFECT_PACKAGES, ...EFFECT_BUILTINS],
    why: 'the engine orchestrates over injected ports; files, processes and the terminal belong behind a port implemented in src/infra, src/state or src/ui.',
  },
  features: {
    packages: ['commander'],
    why: 'parsing the command line belongs to src/cli; a feature takes already-parsed options.',
  },
};

/** The doc's layer section, rendered from the table: the floors top to bottom and what each may import. */
export function renderLayerDoc(table = LAYER_TABLE) {
  const code = (text) => `\`${text}\``;
  const rows = table.map((layer) => {
    const listed = layer.imports.length === 0 ? '—' : layer.imports.map(code).join(', ');
    const imports = layer.loads === undefined ? listed : `${listed}; ${layer.loads.map(code).join(', ')} only through \`import()\``;
    return `| ${code(layer.name)} | ${layer.paths.map(code).join(' ')} | ${imports} | ${layer.what} |`;
  });
  const packages = Object.entries(PACKAGE_RULES).map(([name, rule]) => {
    const builtins = rule.builtinsExcept === undefined ? '' : `, and no Node builtin but ${rule.builtinsExcept.map(code).join(' and ')}`;
    return `- ${code(name)} loads none of ${rule.packages.map(code).join(', ')}${builtins}.`;
  });
  return [
    '| layer | where | may import (values and types alike) | what stands there |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Anything a row does not name is forbidden, `import type` included: no arrow runs back up the',
    'table. Every file of `src/` belongs to a row. Outside `src/`, lint also keeps these layers',
    'from packages that act on the world:',
    '',
    ...packages,
  ].join('\n');
}

const START = '<!-- layer-table:start -->';
const END = '<!-- layer-table:end -->';

/** The doc's text with its layer section (between the two markers) rendered from the table. */
export function replaceLayerSection(doc, table = LAYER_TABLE) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/architecture.md has no ${START} … ${END} section`);
  return `${doc.slice(0, start + START.length)}\n${renderLayerDoc(table)}\n${doc.slice(end)}`;
}
