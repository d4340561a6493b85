import Module from 'node:module';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { enableCodeCache, requireCached, saveCodeCaches } from './require-cached.ts';

describe('CommonJS through a V8 code cache', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-code-cache-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a cache after the first load and compiles from it the next time', () => {
    const lib = path.join(dir, 'lib.js');
    writeFileSync(lib, "const dep = require('./dep.js');\nexports.twice = (x) => dep.add(x, x);\nexports.file = __filename;\n");
    writeFileSync(path.join(dir, 'dep.js'), 'exports.add = (a, b) => a + b;\n');
    const cache = path.join(dir, 'cache');
    enableCodeCache(cache);
    const parent = pathToFileURL(path.join(dir, 'parent.mjs')).href;
    const a = requireCached('./lib.js', parent) as { twice(x: number): number; file: string };
    expect([a.twice(21), a.file]).toEqual([42, lib]);
    saveCodeCaches();
    const written = readdirSync(cache);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^lib\.js-.*\.v8$/);
    // as a fresh process: not loaded yet, the cache there and accepted, so nothing new to write
    delete (Module as unknown as { _cache: Record<string, unknown> })._cache[lib];
    rmSync(path.join(cache, written[0]));
    writeFileSync(path.join(cache, written[0]), Buffer.alloc(0));
    const b = requireCached('./lib.js', parent) as { twice(x: number): number };
    expect(b.twice(2)).toBe(4);
    // an empty (rejected) cache is written again
    saveCodeCaches();
    expect(existsSync(path.join(cache, written[0]))).toBe(true);
    // a good cache is used, not written again
    delete (Module as unknown as { _cache: Record<string, unknown> })._cache[lib];
    expect((requireCached('./lib.js', parent) as { twice(x: number): number }).twice(3)).toBe(6);
    rmSync(path.join(cache, written[0]));
    saveCodeCaches();
    expect(existsSync(path.join(cache, written[0]))).toBe(false);
  });
});
