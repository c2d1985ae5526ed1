#!/usr/bin/env node
import '../dist/cli/ralph-setup.js';
