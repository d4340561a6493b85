#!/usr/bin/env node
// `npm run cad -- …`: the compiled command line (packages/cad/dist/cad.mjs), built first when missing or older than
// its sources. `node packages/cad/dist/cad.mjs …` runs it without npm's own start-up.
import { runCompiled } from './build.mjs';

await runCompiled('cad', 'cad');
