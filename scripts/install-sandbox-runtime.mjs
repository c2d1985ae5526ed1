// Installs the sandbox runtime of `ralph --sandbox` into sandbox-runtime/ from its lockfile, the
// way the first run with --sandbox does (it is Ralph's own installer, from the build in dist/):
// the integration tier's setup calls this so its sandbox tests start from an installed runtime,
// and it does nothing while the install there still matches the lockfile.
import { loadSandboxRuntime } from '../dist/infra/sandbox/sandbox-runtime-package.js';

await loadSandboxRuntime({ say: (line) => process.stderr.write(`${line}\n`) });
