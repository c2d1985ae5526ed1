#!/usr/bin/env bash
# Prints the folder of a Node.js that satisfies package.json's engines, for CI to put first on
# PATH: the `node` on PATH when it is new enough, else Node CI_NODE_VERSION from the npm registry
# (the node-<platform>-<arch> package), kept in .ci/node/ of this checkout for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
CI_NODE_VERSION="${CI_NODE_VERSION:-22.23.5}"
min="$(sed -n 's/.*"node": ">=\([0-9.]*\)".*/\1/p' package.json)"
new_enough() {
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); const [x, y] = process.argv[1].split(".").map(Number); process.exit(a > x || (a === x && b >= y) ? 0 : 1);' "$min"
}
if command -v node >/dev/null 2>&1 && new_enough node; then
  dirname "$(command -v node)"
  exit 0
fi
platform="$(node -p 'process.platform')-$(node -p 'process.arch')"
dir=".ci/node/$CI_NODE_VERSION"
if [ ! -x "$dir/node_modules/node-$platform/bin/node" ]; then
  echo "node $(node --version) is older than $min (package.json engines): fetching Node $CI_NODE_VERSION for this run" >&2
  npm install --prefix "$dir" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error "node-$platform@$CI_NODE_VERSION" >&2
fi
new_enough "$dir/node_modules/node-$platform/bin/node" || { echo "Node $CI_NODE_VERSION does not satisfy >=$min" >&2; exit 1; }
echo "$PWD/$dir/node_modules/node-$platform/bin"
