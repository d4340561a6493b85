/**
 * The README promises Node 20. Two ways that breaks quietly: a dependency whose declared engines leave Node 20
 * out (npm prints EBADENGINE on every install, and the package may use APIs Node 20 lacks), and a library that
 * warns at run time that it does not support the runtime. Both fail here, on whatever Node runs the tests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, startServer, type ServerProcess } from '../apps/server/src/test/server-process.ts';

/** the oldest Node 20 we support (Vite's own floor); every declared engine must accept it */
const OLDEST_NODE_20 = '20.19.0';

describe('Node 20', () => {
  it('every installed package declares engines that include Node 20 (what npm ci reports as EBADENGINE)', () => {
    const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean; optional?: boolean }> };
    const refused: string[] = [];
    for (const [where, pkg] of Object.entries(lock.packages)) {
      const range = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      if (!where || !range) continue;
      if (!semver.satisfies(OLDEST_NODE_20, range, { includePrerelease: true })) refused.push(`${where.replace(/^.*node_modules\//, '')}: node ${range}`);
    }
    expect(refused).toEqual([]);
  });

  let server: ServerProcess | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cadcloud-node20-'));
  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the product and its login site start and answer without a runtime warning', async () => {
    server = await startServer({ DATA_DIR: dataDir, NODE_ENV: 'production' });
    // the login site loads its OpenID provider on start; touch both sites so lazy imports happen too
    expect((await fetch(`${server.url}/api/docs/json`)).status).toBeLessThan(500);
    expect((await fetch(`http://127.0.0.1:${server.port + 1}/.well-known/openid-configuration`)).status).toBe(200);
    const out = server.output();
    expect(out).not.toMatch(/Unsupported runtime/i);
    // Node's process warnings, deprecations included: "(node:123) [FSTDEP023] FastifyDeprecation: …"
    expect(out).not.toMatch(/\(node:\d+\) (\[\w+\] )?\w*(Warning|Deprecation)/);
  }, 90_000);
});
