// Which folder of src/ may import what (docs/architecture.md). A layer lists what it must
// NOT import; anything not listed is allowed. `typeImportsAllowed` lets a layer name another
// layer's types with `import type` (erased at build, so nothing is loaded at run time).

/** Packages that act on the world: files, processes, terminals, locks, the network. */
const EFFECT_PACKAGES = ['chalk', 'ora', 'commander', 'proper-lockfile', '@modelcontextprotocol/sdk', '@octokit/rest', '@anthropic-ai/sandbox-runtime'];

/** Node builtins that read or change the machine, for layers that may still use pure ones. */
const EFFECT_BUILTINS = [
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

const ONLY_CLI_COMPOSES = {
  layers: ['cli'],
  why: 'src/cli is the composition root and imports everything else; importing it back makes a cycle. Move the shared code into a lower layer and import it from both.',
};

export const LAYERS = {
  core: [
    {
      layers: ['engine', 'state', 'infra', 'checkpoints', 'ui', 'cli', 'features', 'backends'],
      why: 'src/core decides from data alone. Pass what it needs in as arguments and keep the effect at the edge.',
    },
    {
      packages: EFFECT_PACKAGES,
      builtinsExcept: ['node:path', 'node:url'],
      why: 'src/core is pure: no files, processes, clock, terminal or network. Only string helpers like node:path are allowed.',
    },
  ],
  engine: [
    {
      layers: ['ui', 'cli', 'infra', 'checkpoints', 'state', 'features', 'backends'],
      typeImportsAllowed: true,
      why: 'the engine works through the ports it is given (src/engine/ports.ts, src/ports.ts); it may name their types with `import type` but never loads an implementation. Wire implementations in src/cli.',
    },
    {
      packages: [...EFFECT_PACKAGES, ...EFFECT_BUILTINS],
      why: 'the engine orchestrates over injected ports; files, processes and the terminal belong behind a port implemented in src/infra, src/state or src/ui.',
    },
  ],
  features: [
    ONLY_CLI_COMPOSES,
    {
      packages: ['commander'],
      why: 'parsing the command line belongs to src/cli; a feature takes already-parsed options.',
    },
  ],
  backends: [
    {
      layers: ['cli', 'ui', 'features'],
      why: 'a backend only runs the agent and returns its result; what the user sees and which command asked is decided above it.',
    },
  ],
  state: [ONLY_CLI_COMPOSES],
  infra: [ONLY_CLI_COMPOSES],
  checkpoints: [ONLY_CLI_COMPOSES],
  ui: [ONLY_CLI_COMPOSES],
  config: [ONLY_CLI_COMPOSES],
};

/**
 * Imports that break a rule above today and are allowed, one file and one target at a time,
 * until the code moves. Each entry is checked: once the import is gone, lint reports the entry
 * as stale so the list only shrinks. Do not add to it for new code.
 */
export const LAYER_EXCEPTIONS = [];
