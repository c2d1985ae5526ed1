#!/usr/bin/env node
require('../dist/bundle/fast-path.cjs').start('ralph-setup');
