#!/usr/bin/env node
require('../dist/bundle/fast-path-ralph-monitor.cjs').start('ralph-monitor');
