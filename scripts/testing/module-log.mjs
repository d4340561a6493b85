// For tests of the compiled build: `NODE_OPTIONS=--import=<this file>` with MODULE_LOG=<file> appends the address of
// every module each node process loads (the server, and the DWG reader processes it starts, which inherit
// NODE_OPTIONS) to MODULE_LOG, one a line, so a test can say no TypeScript and no tsx was loaded.
import { register } from 'node:module';

if (process.env.MODULE_LOG) register('./module-log.hooks.mjs', import.meta.url);
