import { lstatSync, mkdirSync } from 'node:fs';
import { privateDirProblem } from '../../../core/private-dir.js';
import { ToolError } from './tool-error.js';

/**
 * The test tools' home holds workspaces that start-up cleanup deletes and a
 * registry whose paths it trusts, so it must be this user's alone: created
 * 0700 when missing, and refused (never repaired, never used) when it is a
 * symlink, someone else's, or open to group or others.
 */
export function ensurePrivateHome(path: string): void {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new ToolError('run_failed', `cannot create the test tools' directory ${path} (${code ?? String(error)})`, { path });
  }
  const stat = lstatSync(path);
  const myUid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const problem = privateDirProblem(
    path,
    { isSymbolicLink: stat.isSymbolicLink(), isDirectory: stat.isDirectory(), uid: myUid === undefined ? undefined : stat.uid, mode: stat.mode },
    myUid,
  );
  if (problem !== undefined) {
    throw new ToolError(
      'unsafe_home',
      `refusing to use ${path} for test workspaces: ${problem}`,
      { path },
      'Remove it if it is not yours (or chmod 700 it if it is), or set RALPH_TEST_TOOLS_HOME to a directory only you can open.',
    );
  }
}
