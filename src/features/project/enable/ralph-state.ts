import { existsSync } from 'node:fs';
import { ralphPaths } from '../../../state/paths.js';

/** How far Ralph is set up in a folder. */
export type RalphState = 'none' | 'partial' | 'complete';

export function checkRalphState(dir: string): RalphState {
  const p = ralphPaths(dir);
  // .ralphrc is not asked for: a project set up by hand may run on defaults and flags.
  const core = [p.prompt, p.fixPlan, p.agent];
  const present = core.filter((path) => existsSync(path)).length;
  if (present === core.length) return 'complete';
  return present > 0 || existsSync(p.dir) ? 'partial' : 'none';
}
