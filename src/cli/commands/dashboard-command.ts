import { join } from 'node:path';
import { ExitCode } from '../../errors.js';
import { runDashboard } from '../../features/observe/dashboard/run-dashboard.js';
import { packageRoot } from '../../infra/package-info.js';
import { createDefaultDeps } from '../deps.js';
import type { DashboardArgs } from '../ralph-args.js';

/** Where `npm run build` puts the page (scripts/bundle.mjs); the package ships it in dist/bundle. */
export function dashboardAssetsDir(): string {
  return join(packageRoot(), 'dist', 'bundle', 'dashboard');
}

/** `ralph dashboard`: runs until Ctrl+C (130) or SIGTERM (143), then closes the server. */
export async function dashboardCommand(args: DashboardArgs, cwd: string): Promise<number> {
  const stop = new AbortController();
  const onSigint = (): void => stop.abort(ExitCode.Sigint);
  const onSigterm = (): void => stop.abort(ExitCode.Sigterm);
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);
  const { runner, clock } = createDefaultDeps();
  try {
    return await runDashboard(
      { projectDir: cwd, host: args.host, port: args.port, open: args.open, allowRemote: args.allowRemote },
      {
        stdout: process.stdout,
        stderr: process.stderr,
        signal: stop.signal,
        env: process.env,
        platform: process.platform,
        runner,
        now: () => clock.now(),
        staticDir: dashboardAssetsDir(),
      },
    );
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  }
}
