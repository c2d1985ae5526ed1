#!/usr/bin/env bash
# Installs Ralph from this checkout: builds it, copies the built package to
# $RALPH_HOME (default ~/.local/share/ralph) and puts one small wrapper per
# command in $PREFIX/bin (default ~/.local/bin). That is all it writes outside
# this checkout (besides npm's download cache); uninstall removes exactly that,
# and the folders install had to create when they are left empty.
#
#   ./install.sh              install or update (safe to run again)
#   ./install.sh uninstall    remove every command and file it installed
#   ./install.sh --help
set -euo pipefail

COMMANDS=(ralph ralph-setup ralph-enable ralph-import ralph-monitor ralph-stats)
MARKER="# installed by ralph install.sh"
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN_DIR="${PREFIX:-$HOME/.local}/bin"
RALPH_HOME="${RALPH_HOME:-$HOME/.local/share/ralph}"
# The oldest Node.js Ralph and every package it installs declare they run on (package.json's engines).
MIN_NODE="$(sed -n 's/.*"node": ">=\([0-9.]*\)".*/\1/p' "$SRC_DIR/package.json")"

say() { printf '%s\n' "$*"; }
fail() { printf 'Error: %s\n' "$*" >&2; exit 1; }

usage() {
  cat <<USAGE
Usage: ./install.sh [install|uninstall|--help]

  install     build Ralph and install: ${COMMANDS[*]}
              commands go to \$PREFIX/bin (now: $BIN_DIR),
              the package to \$RALPH_HOME (now: $RALPH_HOME)
  uninstall   remove every command and file install put there

It needs Node.js $MIN_NODE or newer, npm and git. Besides those two places it
writes only into this checkout (node_modules/, dist/) and npm's download cache.
The first 'ralph --sandbox' installs the sandbox runtime (about 20 MB) into
\$RALPH_HOME/sandbox-runtime, once; uninstall removes it with the rest.
USAGE
}

check_requirements() {
  command -v node >/dev/null 2>&1 || fail "Node.js $MIN_NODE or newer is required (https://nodejs.org, or your package manager)."
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); const [x, y] = process.argv[1].split(".").map(Number); process.exit(a > x || (a === x && b >= y) ? 0 : 1);' "$MIN_NODE" ||
    fail "Node.js $MIN_NODE or newer is required; found $(node --version). Update Node.js and run ./install.sh again."
  command -v npm >/dev/null 2>&1 || fail "npm is required (it ships with Node.js)."
  command -v git >/dev/null 2>&1 || fail "git is required (https://git-scm.com)."
  command -v claude >/dev/null 2>&1 || say "Note: the Claude Code CLI is not on PATH yet. Install it with: npm install -g @anthropic-ai/claude-code (ralph demo works without it)."
  command -v tmux >/dev/null 2>&1 || say "Note: tmux is not installed; 'ralph --monitor' needs it (ralph-monitor works without it)."
}

build() {
  cd "$SRC_DIR"
  # npm ci reinstalls from scratch; skip it when node_modules already matches the lockfile.
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "Installing dependencies (npm ci)..."
    npm ci --no-audit --no-fund --prefer-offline
  fi
  if [ ! -f dist/bundle/ralph-help.txt ] || [ -n "$(find src web scripts package.json tsconfig.json tsconfig.build.json -newer dist/bundle/ralph-help.txt -print -quit)" ]; then
    say "Building..."
    npm run --silent build
  fi
}

# The folders above $RALPH_HOME and $BIN_DIR that do not exist yet, deepest first: install
# creates them, so uninstall may remove them again (when nothing else has moved in).
missing_dirs() {
  local dir
  for dir in "$@"; do
    while [ ! -e "$dir" ]; do
      printf '%s\n' "$dir"
      dir="$(dirname "$dir")"
    done
  done
}

copy_package() {
  say "Installing the package into $RALPH_HOME"
  local staging="$RALPH_HOME.new.$$" created
  created="$(missing_dirs "$(dirname "$RALPH_HOME")" "$BIN_DIR")"
  [ -f "$RALPH_HOME/.installed-dirs" ] && created="$(cat "$RALPH_HOME/.installed-dirs")"$'\n'"$created"
  rm -rf "$staging"
  mkdir -p "$staging"
  printf '%s\n' "$created" | sed '/^$/d' > "$staging/.installed-dirs"
  # -p keeps the build's times: ralph answers --help from the rendered text only when it is not older than the bundle.
  cp -pR "$SRC_DIR/bin" "$SRC_DIR/templates" "$SRC_DIR/package.json" "$staging/"
  # The commands run from the bundle alone, which carries every package they use; the rest of
  # dist/ is what tests and benches import.
  mkdir -p "$staging/dist"
  cp -pR "$SRC_DIR/dist/bundle" "$staging/dist/"
  [ -f "$SRC_DIR/README.md" ] && cp "$SRC_DIR/README.md" "$staging/"
  # The sandbox runtime of --sandbox is a package of its own: only its manifest and lockfile come
  # along, and the first run with --sandbox installs it beside them (kept across updates, below).
  mkdir -p "$staging/sandbox-runtime"
  cp -p "$SRC_DIR/sandbox-runtime/package.json" "$SRC_DIR/sandbox-runtime/package-lock.json" "$staging/sandbox-runtime/"
  if [ -f "$RALPH_HOME/sandbox-runtime/node_modules/.ralph-installed-lock-sha256" ] && cmp -s "$RALPH_HOME/sandbox-runtime/package-lock.json" "$SRC_DIR/sandbox-runtime/package-lock.json"; then
    cp -pR "$RALPH_HOME/sandbox-runtime/node_modules" "$staging/sandbox-runtime/"
  fi
  # Swap in the new copy only once it is complete.
  rm -rf "$RALPH_HOME.old"
  [ -d "$RALPH_HOME" ] && mv "$RALPH_HOME" "$RALPH_HOME.old"
  mv "$staging" "$RALPH_HOME"
  rm -rf "$RALPH_HOME.old"
}

write_wrappers() {
  mkdir -p "$BIN_DIR"
  local cmd target
  for cmd in "${COMMANDS[@]}"; do
    target="$BIN_DIR/$cmd"
    if [ -e "$target" ] && ! grep -q "$MARKER" "$target" 2>/dev/null; then
      # Something else (the bash Ralph, for instance) owns this name: keep it.
      mv "$target" "$target.before-ralph-ts"
      say "Kept the existing $target as $target.before-ralph-ts"
    fi
    cat > "$target.tmp" <<WRAPPER
#!/bin/sh
$MARKER
exec node "$RALPH_HOME/bin/$cmd.js" "\$@"
WRAPPER
    chmod 755 "$target.tmp"
    mv "$target.tmp" "$target"
  done
  printf '%s\n' "${COMMANDS[@]}" > "$RALPH_HOME/.installed-commands"
  printf '%s\n' "$BIN_DIR" > "$RALPH_HOME/.installed-bin-dir"
}

install() {
  check_requirements
  build
  copy_package
  write_wrappers
  say ""
  say "✅ Ralph $(node -p "require('$RALPH_HOME/package.json').version") installed: ${COMMANDS[*]}"
  case ":$PATH:" in
    *":$BIN_DIR:"*) ;;
    *)
      say ""
      say "⚠️  $BIN_DIR is not on your PATH. Add this line to your shell profile (~/.bashrc, ~/.zshrc):"
      say "    export PATH=\"$BIN_DIR:\$PATH\""
      ;;
  esac
  say ""
  say "Try it:  ralph demo        (no API key needed)"
  say "Then:    ralph-enable       (in an existing project)  or  ralph-setup my-project"
}

uninstall() {
  local bin_dir="$BIN_DIR" cmd target removed=0 dir
  [ -f "$RALPH_HOME/.installed-bin-dir" ] && bin_dir="$(cat "$RALPH_HOME/.installed-bin-dir")"
  for cmd in "${COMMANDS[@]}"; do
    target="$bin_dir/$cmd"
    if [ -f "$target" ] && grep -q "$MARKER" "$target" 2>/dev/null; then
      rm -f "$target"
      removed=$((removed + 1))
      [ -e "$target.before-ralph-ts" ] && mv "$target.before-ralph-ts" "$target" && say "Restored the earlier $target"
    fi
  done
  local created=""
  [ -f "$RALPH_HOME/.installed-dirs" ] && created="$(cat "$RALPH_HOME/.installed-dirs")"
  # What an interrupted install may have left beside it.
  rm -rf "$RALPH_HOME" "$RALPH_HOME.old" "$RALPH_HOME".new.*
  # The folders install created, deepest first; rmdir keeps one that holds anything else.
  while IFS= read -r dir; do
    [ -n "$dir" ] && rmdir "$dir" 2>/dev/null || true
  done < <(printf '%s\n' "$created" | sort -u | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-)
  say "✅ Ralph uninstalled ($removed command(s) removed from $bin_dir, $RALPH_HOME deleted)."
}

case "${1:-install}" in
  install) install ;;
  uninstall) uninstall ;;
  -h | --help | help) usage ;;
  # A wrong word on the command line is a usage error: exit 2, as every ralph command does.
  *)
    usage >&2
    printf 'Error: unknown command: %s\n' "$1" >&2
    exit 2
    ;;
esac
