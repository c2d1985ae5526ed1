#!/usr/bin/env node
// A frame (--once, --json) starts from the fast path that carries the monitor; --version, --help
// and the live dashboard start from the shared one, which does not load the monitor's code.
const frame = process.argv.includes('--once') || process.argv.includes('--json');
require(frame ? '../dist/bundle/fast-path-ralph-monitor.cjs' : '../dist/bundle/fast-path.cjs').start('ralph-monitor');
