#!/usr/bin/env node
require('../dist/bundle/fast-path-ralph-stats.cjs').start('ralph-stats');
