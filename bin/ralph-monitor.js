#!/usr/bin/env node
import '../dist/cli/ralph-monitor.js';
