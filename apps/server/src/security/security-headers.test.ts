import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { inlineScripts } from '../infra/http/security-headers.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';
import { repoRoot } from '../test/server-process.ts';
import { registerWebApp } from '../web-static.ts';

/**
 * Issue 14 item 13: the web app was sent without a Content-Security-Policy or frame protection. Every answer
 * now carries them; the policy lets only the app's own code run (its inline boot scripts by hash). That the
 * built app works under it is checked by the browser tests (e2e/harness.ts fails on a violation).
 */
const sha = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
const directive = (csp: string, name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';

describe('security headers of the web app', () => {
  let t: TestApp;
  const dist = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-dist-'));
  const boot = ['\n      window.__first = 1;\n    ', "(function(){window.__second=2})();"];
  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><head><script>${boot[0]}</script><script>${boot[1]}</script><script type="module" src="/assets/app.js"></script></head><body></body></html>`);
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'export {}');
    t = await createTestApp(testDatabaseDrivers()[0]);
    await registerWebApp(t.app, dist);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('a page, a script and an API answer all carry the policy and the frame, type and referrer headers', async () => {
    const u = await t.createUser();
    const answers = [
      await t.app.inject({ method: 'GET', url: '/yun/recent' }),
      await t.app.inject({ method: 'GET', url: '/share/abcd' }),
      await t.app.inject({ method: 'GET', url: '/assets/app.js' }),
      await t.app.inject({ method: 'POST', url: `/user/v5/sysuser/userInfo?utoken=${u.token}`, payload: { data: {} } }),
      await t.app.inject({ method: 'POST', url: '/user/v5/sysuser/userInfo', payload: { data: {} } }),
    ];
    expect(answers[0].body).toContain('__first');
    for (const r of answers) {
      const csp = String(r.headers['content-security-policy'] ?? '');
      expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
      expect(directive(csp, 'object-src')).toBe("object-src 'none'");
      expect(directive(csp, 'default-src')).toBe("default-src 'self'");
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('same-origin');
    }
  });

  it('lets the inline boot scripts run by their hashes, and no other inline or foreign script', async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/yun/recent' })).headers['content-security-policy']);
    const scripts = directive(csp, 'script-src');
    expect(scripts.split(' ').sort()).toEqual(['script-src', "'self'", sha(boot[0]), sha(boot[1])].sort());
    expect(csp).not.toContain('unsafe-eval');
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
  });

  const built = path.join(repoRoot, 'apps/web/dist/index.html');
  it.skipIf(!existsSync(built))('finds both inline scripts of the built index.html (the scene request and the boot script)', () => {
    const found = inlineScripts(readFileSync(built, 'utf8'));
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('__cadScene');
    expect(found[1]).toContain('modulepreload');
  });
});
