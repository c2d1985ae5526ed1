#!/usr/bin/env node
import '../dist/cli/ralph-import.js';
