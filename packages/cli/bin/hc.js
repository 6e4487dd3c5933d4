#!/usr/bin/env node
// The built CLI (npm install builds it: see the repository's scripts/build-packages.mjs).
import '../dist/main.js';
