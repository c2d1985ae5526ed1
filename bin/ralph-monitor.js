#!/usr/bin/env node
require('../dist/bundle/ralph-monitor.cjs');
