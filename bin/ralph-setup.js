#!/usr/bin/env node
import '../dist/bundle/ralph-setup.js';
