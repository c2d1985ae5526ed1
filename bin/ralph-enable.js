#!/usr/bin/env node
import '../dist/bundle/ralph-enable.js';
