import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ralphPaths } from '../../../src/state/paths.js';
import { locateRuntimeDir } from '../../../src/state/runtime-dir.js';
import { tempDir } from '../../helpers/temp-dir.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('ralphPaths', () => {
  it('finds the run-time directory only when a path under it is asked for (the monitor never asks)', () => {
    const project = tempDir('ralph-paths-project-');
    vi.stubEnv('XDG_RUNTIME_DIR', tempDir('ralph-paths-before-'));
    const paths = ralphPaths(project);
    expect(paths.status).toBe(join(project, '.ralph', 'status.json'));
    // Looked up at the first question, not when the paths were made.
    const later = tempDir('ralph-paths-runtime-');
    vi.stubEnv('XDG_RUNTIME_DIR', later);
    const dir = locateRuntimeDir(project);
    expect(dir.startsWith(join(later, 'ralph'))).toBe(true);
    expect(paths.runtimeDir).toBe(dir);
    expect(paths.lockTarget).toBe(dir);
    expect(paths.lockFile).toBe(join(dir, 'loop.lock'));
    expect(paths.pidFile).toBe(join(dir, 'loop.pid'));
    expect(paths.runFile).toBe(join(dir, 'run.json'));
  });

  it('lists the run-time paths with the others, as plain values of a copy', () => {
    const paths = ralphPaths(tempDir('ralph-paths-project-'));
    const copy = { ...paths };
    expect(Object.keys(copy)).toEqual(expect.arrayContaining(['runtimeDir', 'lockFile', 'pidFile', 'runFile', 'lockTarget']));
    expect(copy.lockFile).toBe(paths.lockFile);
  });
});
