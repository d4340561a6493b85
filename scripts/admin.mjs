#!/usr/bin/env node
// `npm run admin -- …`: the compiled operator CLI (apps/server/dist/admin.mjs), built first when missing or older than
// its sources.
import { runCompiled } from './build.mjs';

await runCompiled('server', 'admin');
