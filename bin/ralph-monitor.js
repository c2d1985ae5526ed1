#!/usr/bin/env node
import '../dist/bundle/ralph-monitor.js';
