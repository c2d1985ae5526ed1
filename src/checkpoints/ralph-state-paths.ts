import { PROJECT_FILES } from '../core/project-layout.js';

const RALPH_DIR = `${PROJECT_FILES.dir}/`;

/**
 * Ralph's own state files under the project's `.ralph/` (status, logs,
 * counters, the gate and checkpoint records) are outside every checkpoint and
 * every rollback: rolling back the agent's work must not roll back Ralph's
 * memory of it. The project's prompt and plan files in `.ralph/` are the
 * user's work and are covered. Paths are relative to the project directory.
 */
export function isRalphStatePath(path: string): boolean {
  if (!path.startsWith(RALPH_DIR)) return false;
  const rest = path.slice(RALPH_DIR.length);
  return (
    rest.startsWith('.') ||
    rest === 'logs' ||
    rest.startsWith('logs/') ||
    rest === 'status.json' ||
    rest === 'progress.json' ||
    rest === 'live.log' ||
    rest.endsWith('.corrupt') ||
    rest.endsWith('.tmp')
  );
}
