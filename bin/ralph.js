#!/usr/bin/env node
import '../dist/bundle/ralph.js';
