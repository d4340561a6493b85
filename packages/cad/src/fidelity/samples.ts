import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');
/** SAMPLES_DIR, default ../shared/samples next to the repository; never copied into it. */
export const samplesDir = path.resolve(repoRoot, process.env.SAMPLES_DIR ?? '../shared/samples');
export const haveSamples = existsSync(samplesDir);
export const sample = (name: string) => path.join(samplesDir, name);
export const sampleNames = (re: RegExp) => (haveSamples ? readdirSync(samplesDir).filter((n) => re.test(n)).sort() : []);
