#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no build step between `npm install` and
// `npm start`, the same code in development and production.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
