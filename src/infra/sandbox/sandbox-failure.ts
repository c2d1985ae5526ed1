import { ExitCode, RalphError } from '../../errors.js';

/**
 * How to get the sandbox running, for the message that stops a --sandbox run before its
 * first call. The runtime needs bubblewrap and socat (ripgrep for its scan of the project)
 * and unprivileged user namespaces; the usual reasons it has none are named here.
 */
export const SANDBOX_SETUP_HINT = [
  'Install what the sandbox needs: bubblewrap, socat and ripgrep',
  '(Debian/Ubuntu: sudo apt-get install bubblewrap socat ripgrep; Fedora: sudo dnf install bubblewrap socat ripgrep).',
  'On Ubuntu 24.04 AppArmor keeps unprivileged programs from creating user namespaces:',
  'allow it with sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0.',
  "A default Docker container cannot run it either (Docker's seccomp profile refuses the namespaces bubblewrap creates):",
  'run Ralph on the host or in a VM. macOS needs nothing more (sandbox-exec).',
  'Run without --sandbox to go on uncontained. See docs/sandbox.md.',
].join(' ');

export function sandboxStartFailure(what: string): RalphError {
  return new RalphError(`--sandbox cannot start on this machine: ${what}`, ExitCode.RuntimeError, SANDBOX_SETUP_HINT);
}
