#!/usr/bin/env node
require('../dist/bundle/ralph-stats.cjs');
