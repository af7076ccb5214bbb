#!/usr/bin/env node
// A committed launcher rather than `bin` pointing into dist: pnpm links bins at install time,
// before any build, and warns about (and skips) a bin whose file does not exist yet.
import '../dist/main.js';
