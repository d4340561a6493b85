// Entry of the compiled operator CLI (`npm run admin`, apps/server/dist/admin.mjs; scripts/build.mjs).
import { adminMain } from './admin.cli.ts';

await adminMain(process.argv.slice(2));
