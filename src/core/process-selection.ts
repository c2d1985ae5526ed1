/**
 * Which processes of a process table belong to one of Ralph's runs. Pure: the
 * table is read elsewhere (/proc or ps) and handed in.
 *
 * A process is ours when it carries the run's marker in its environment, is a
 * member of a process group Ralph created, is one of the processes Ralph
 * spawned itself (same PID *and* same start time, so a recycled PID never
 * matches), or descends from any of those. Descent is followed through the
 * parent links of the snapshot, so a child that left its group or session
 * (setsid) is still found while its parent lives, and the marker finds it
 * after it was re-parented to init.
 */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot; '' where the platform gives none. */
  startTime: string;
  /** Short command name. */
  command: string;
  /** Ended but not reaped: nothing left to stop. */
  zombie: boolean;
  /** Whether the process carries the marker being looked for. */
  marked: boolean;
}

export interface SpawnedProcess {
  pid: number;
  /** '' when unknown: then the PID alone identifies it. */
  startTime: string;
}

export interface OwnershipRule {
  spawned: readonly SpawnedProcess[];
  /** Process groups Ralph created (their leader's PID). */
  groups: readonly number[];
  /** Never selected: Ralph itself, its watchdog. */
  exclude: readonly number[];
}

function isSpawned(entry: ProcessEntry, spawned: readonly SpawnedProcess[]): boolean {
  return spawned.some((s) => s.pid === entry.pid && (s.startTime === '' || entry.startTime === '' || s.startTime === entry.startTime));
}

/** The live processes the rule owns, in table order. */
export function selectOwnedProcesses(table: readonly ProcessEntry[], rule: OwnershipRule): ProcessEntry[] {
  const excluded = new Set(rule.exclude);
  const owned = new Set<number>();
  for (const entry of table) {
    if (excluded.has(entry.pid)) continue;
    if (entry.marked || rule.groups.includes(entry.pgid) || isSpawned(entry, rule.spawned)) owned.add(entry.pid);
  }
  // Children of owned processes are owned; repeat until nothing new is found.
  const children = new Map<number, number[]>();
  for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry.pid]);
  const queue = [...owned];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    for (const child of children.get(pid) ?? []) {
      if (owned.has(child) || excluded.has(child)) continue;
      owned.add(child);
      queue.push(child);
    }
  }
  return table.filter((e) => owned.has(e.pid) && !e.zombie);
}

/** "1234 (sleep), 1240 (sh)" for the log. */
export function describeProcesses(entries: readonly { pid: number; command: string }[]): string {
  return entries.map((e) => `${e.pid} (${e.command})`).join(', ');
}
