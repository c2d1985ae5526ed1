#!/usr/bin/env node
import '../dist/cli/ralph-stats.js';
