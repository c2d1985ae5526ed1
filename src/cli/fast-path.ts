import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusAction } from './commands/status-commands.js';
import { stdoutIsTerminal, writeStdout } from './direct-stdout.js';
import type { StatsArgs } from './ralph-stats.js';

/**
 * How every installed command starts. The answers scripts ask for most
 * (`--version`, `--help`, `ralph --status`, `ralph-monitor --once`,
 * `ralph-stats --json` …) cost less than loading commander and every option
 * it declares, so they are answered from the table below without it. The
 * table lists each argv it answers, word for word: anything else (a value, a
 * typo, a switch twice) goes to the command's parser, so its checks and its
 * messages stay the only ones. One integration test runs every argv of the
 * table through both paths and holds their output equal.
 */

/** The commands in bin/. */
export const BINARIES = ['ralph', 'ralph-setup', 'ralph-enable', 'ralph-import', 'ralph-monitor', 'ralph-stats'] as const;
export type Binary = (typeof BINARIES)[number];

/** What the parser would make of an argv the table answers. */
export type FastAnswer =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'status'; action: StatusAction; json: boolean }
  | { kind: 'stats'; args: StatsArgs }
  | { kind: 'monitor'; once: boolean; json: boolean; color: boolean };

export interface FastRow {
  binary: Binary;
  /** Every argv the row answers, exactly as given (listed when asked: a start only asks `matches`). */
  readonly argvs: readonly (readonly string[])[];
  /** Whether the row answers argv: argv is one of `argvs`. */
  matches: (argv: readonly string[]) => boolean;
  /** The answer, from the argv's words (each argv holds a word at most once). */
  answer: (words: ReadonlySet<string>) => FastAnswer;
}

/** Every order of every subset of `words` that `keep` accepts: how a parser reads switches. */
export function switchOrders(words: readonly string[], keep: (picked: readonly string[]) => boolean): string[][] {
  const orders: string[][] = [[]];
  for (let size = 1; size <= words.length; size += 1)
    for (const order of orders.filter((o) => o.length === size - 1)) for (const word of words) if (!order.includes(word)) orders.push([...order, word]);
  return orders.filter(keep);
}

const sameArgv = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((word, i) => word === b[i]);

/** A row of argvs listed one by one. */
const listed = (binary: Binary, argvs: readonly (readonly string[])[], answer: FastRow['answer']): FastRow => ({
  binary,
  argvs,
  matches: (argv) => argvs.some((a) => sameArgv(a, argv)),
  answer,
});

/**
 * A row of switches in any order, each at most once, that `keep` accepts: the argvs of
 * switchOrders(words, keep), told without listing them (a start would build every order of
 * every row for the one argv it has).
 */
const switchRow = (binary: Binary, words: readonly string[], keep: (argv: readonly string[]) => boolean, answer: FastRow['answer']): FastRow => ({
  binary,
  get argvs() {
    return switchOrders(words, keep);
  },
  matches: (argv) => new Set(argv).size === argv.length && argv.every((word) => words.includes(word)) && keep(argv),
  answer,
});

const versionAndHelp = (binary: Binary): FastRow[] => [
  listed(binary, [['--version'], ['-V']], () => ({ kind: 'version' })),
  listed(binary, [['--help'], ['-h']], () => ({ kind: 'help' })),
];

const statusRow = (action: StatusAction): FastRow =>
  switchRow(
    'ralph',
    [`--${action}`, '--json'],
    (o) => o.includes(`--${action}`),
    (words) => ({ kind: 'status', action, json: words.has('--json') }),
  );

export const FAST_PATHS: readonly FastRow[] = [
  ...BINARIES.flatMap(versionAndHelp),
  statusRow('status'),
  statusRow('circuit-status'),
  switchRow(
    'ralph-stats',
    ['--json'],
    () => true,
    (words) => ({ kind: 'stats', args: { json: words.has('--json') } }),
  ),
  // One frame or one JSON document; the live dashboard runs for minutes and can afford the parser.
  switchRow(
    'ralph-monitor',
    ['--once', '--json', '--no-color'],
    (o) => o.includes('--once') || o.includes('--json'),
    (words) => ({ kind: 'monitor', once: words.has('--once'), json: words.has('--json'), color: !words.has('--no-color') }),
  ),
];

/** The table's answer for argv, or undefined when the parser must answer. */
export function fastAnswer(binary: Binary, argv: readonly string[]): FastAnswer | undefined {
  const row = FAST_PATHS.find((r) => r.binary === binary && r.matches(argv));
  return row?.answer(new Set(argv));
}

/** Where the build leaves a command's help as commander printed it to a pipe (scripts/render-help.mjs). */
export const renderedHelpPath = (binary: Binary): string => join(import.meta.dirname, `${binary}-help.txt`);

/**
 * The rendered help, or undefined when this build has none or the code ran
 * from a newer file (built without rendering, so it may declare other options).
 */
function renderedHelp(binary: Binary): string | undefined {
  try {
    const path = renderedHelpPath(binary);
    if (statSync(path).mtimeMs < statSync(import.meta.filename).mtimeMs) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The answers that read a project, each loaded when it answers. */
export interface FastParts {
  version: () => Promise<Pick<typeof import('../infra/package-info.js'), 'packageVersion'>>;
  status: () => Promise<Pick<typeof import('./commands/status-commands.js'), 'answerStatus'>>;
  stats: () => Promise<Pick<typeof import('./commands/stats-command.js'), 'answerStats'>>;
  monitor: () => Promise<Pick<typeof import('./monitor-process.js'), 'answerMonitorFrame'>>;
}

/** The version always; of the others, those a binary answers from. */
type PartsOf = Pick<FastParts, 'version'> & Partial<FastParts>;

const IMPORTED_PARTS: FastParts = {
  version: () => import('../infra/package-info.js'),
  status: () => import('./commands/status-commands.js'),
  stats: () => import('./commands/stats-command.js'),
  monitor: () => import('./monitor-process.js'),
};

/**
 * Answers one row's argv; the parser answers when the text the answer needs is
 * not there, or the part it needs is not among `parts`. What an answer needs is
 * loaded when it answers: the start reads this table and nothing else, so
 * handing over to the parser runs no other code (no second copy of an error
 * class is ever made before it).
 */
async function answer(binary: Binary, fast: FastAnswer, parser: () => Promise<unknown>, parts: PartsOf): Promise<unknown> {
  switch (fast.kind) {
    case 'version': {
      const { packageVersion } = await parts.version();
      return writeStdout(`${packageVersion()}\n`);
    }
    case 'help': {
      // commander wraps help to a terminal's width: only a pipe gets the width the build rendered.
      const text = stdoutIsTerminal() ? undefined : renderedHelp(binary);
      return text === undefined ? parser() : writeStdout(text);
    }
    case 'status':
      return parts.status ? (await parts.status()).answerStatus(fast.action, fast.json) : parser();
    case 'stats':
      return parts.stats ? (await parts.stats()).answerStats(fast.args) : parser();
    case 'monitor':
      return parts.monitor ? (await parts.monitor()).answerMonitorFrame({ once: fast.once, json: fast.json, color: fast.color }) : parser();
  }
}

/**
 * The start of every command in bin/: the table's answer when it has one, the
 * command's parser otherwise (`parser` loads it: `program()` of
 * src/cli/<command>.ts, a part of the bundle of its own).
 */
export function startBinary(binary: Binary, parser: () => Promise<unknown>): Promise<unknown> {
  return startBinaryWith(binary, parser, IMPORTED_PARTS);
}

/**
 * The start of a binary whose fast path carries its own answer (scripts/bundle.mjs builds it
 * with that part imported, not loaded from a file of its own); a part not in `parts` is the
 * parser's to answer.
 */
export function startBinaryWith(binary: Binary, parser: () => Promise<unknown>, parts: PartsOf): Promise<unknown> {
  const fast = fastAnswer(binary, process.argv.slice(2));
  return fast === undefined ? parser() : answer(binary, fast, parser, parts);
}
