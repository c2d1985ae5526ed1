#!/usr/bin/env bash
# The Debian packages some tests drive for real, installed with apt-get only when missing: the
# sandbox runtime of `ralph --sandbox` (bubblewrap, socat, ripgrep) and the browser of the
# dashboard's tests (Debian's chromium; a test never downloads a browser). Only .ci/run calls
# this, so CI runs every test; `npm test` never installs system packages (the tests that need
# one skip and say so). Exits non-zero when something is still missing.
set -euo pipefail
missing=()
for tool in bwrap:bubblewrap socat:socat rg:ripgrep /usr/bin/chromium:chromium; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing for some tests: ${missing[*]} (install them with your package manager)." >&2
  exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! sudo -n true 2>/dev/null; then
    echo "Missing for some tests: ${missing[*]}. Install them: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  as_root=(sudo -n)
fi
echo "Installing the Debian packages some tests need: ${missing[*]}" >&2
${as_root[@]+"${as_root[@]}"} apt-get update -qq
${as_root[@]+"${as_root[@]}"} apt-get install -y -qq --no-install-recommends "${missing[@]}"
