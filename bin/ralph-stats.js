#!/usr/bin/env node
// The figures start from the fast path that carries them; --version and --help from the shared
// one, which does not load their code.
const about = process.argv.some((word) => ['--version', '-V', '--help', '-h'].includes(word));
require(about ? '../dist/bundle/fast-path.cjs' : '../dist/bundle/fast-path-ralph-stats.cjs').start('ralph-stats');
