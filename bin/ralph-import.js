#!/usr/bin/env node
import '../dist/bundle/ralph-import.js';
