import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** How far Ralph is set up in a folder. */
export type RalphState = 'none' | 'partial' | 'complete';

const CORE_FILES = ['.ralph/PROMPT.md', '.ralph/fix_plan.md', '.ralph/AGENT.md'];

export function checkRalphState(dir: string): RalphState {
  const present = CORE_FILES.filter((rel) => existsSync(join(dir, rel))).length;
  if (present === CORE_FILES.length) return 'complete';
  return present > 0 || existsSync(join(dir, '.ralph')) ? 'partial' : 'none';
}
