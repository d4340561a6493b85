#!/usr/bin/env node
// `npm run model3d -- convert <in> <out.glb>`: the compiled 3D converter (packages/model3d/dist/model3d.mjs, its worker
// model3d.worker.mjs beside it), built first when missing or older than its sources.
import { runCompiled } from './build.mjs';

await runCompiled('model3d', 'model3d');
