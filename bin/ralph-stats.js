#!/usr/bin/env node
import '../dist/bundle/ralph-stats.js';
