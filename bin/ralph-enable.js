#!/usr/bin/env node
import '../dist/cli/ralph-enable.js';
