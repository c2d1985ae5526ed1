#!/usr/bin/env node
void import('../dist/bundle/ralph-setup.js');
