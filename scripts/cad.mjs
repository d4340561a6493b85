#!/usr/bin/env node
// `npm run cad -- …`: the compiled command line (packages/cad/dist/cad.mjs), built first when missing or older than
// its sources. `packages/cad/dist/cad …` runs it without npm's own start-up, node started from the command line's V8
// snapshot (scripts/build.mjs); `node packages/cad/dist/cad.mjs …` without the snapshot.
import { runCompiled } from './build.mjs';

await runCompiled('cad', 'cad');
