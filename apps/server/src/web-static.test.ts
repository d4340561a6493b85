import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brandIconSvg } from '@cadcloud/contracts/brand';
import { testDatabaseDrivers } from './infra/db/test-databases.ts';
import { createTestApp, type TestApp } from './test/fixtures.ts';
import { createSignInApp, type SignInApp } from './test/sign-in-app.ts';
import { repoRoot } from './test/server-process.ts';
import { registerWebApp } from './web-static.ts';

/**
 * Issue 16 items 3 and 13: `HEAD /` answered a JSON 404 where `GET /` answers the app, and `/invoice/*` pages
 * answered raw API JSON. Every path of the spec's route table (section 2) is the web app's, a page that does not
 * exist yet shows the app's own 404 page; only the API's versioned families answer JSON.
 */
const SPEC_ROUTES = [
  '/', '/yun', '/yun/index', '/yun/recent', '/yun/drawing', '/yun/threeModel', '/yun/picture', '/yun/other',
  '/yun/myPublic', '/yun/myCollection', '/yun/myLike', '/yun/trash', '/yun/share', '/yun/font', '/yun/order',
  '/yun/coupon', '/yun/transformer', '/yun/version/abc', '/webH5', '/webH5/item/abc', '/webH5/info',
  '/webH5/info/usercenter', '/webH5/info/publicplatform', '/webH5/info/feedback', '/webH5/share', '/webH5/share/s1/r1',
  '/webH5/simple', '/webH5/simple/r1', '/share/r1', '/easyShare/r1',
  ...['index', 'lite-intro', 'create', 'title', 'addTitle', 'record', 'detail', 'book', 'notice', 'reCreate'].map((c) => `/invoice/${c}`),
  '/invoice', '/upgrade', '/feedback', '/contactus', '/declaration', '/secure/products', '/view3d?key=k', '/no/such/page',
];

describe('the web app owns every page path', () => {
  let t: TestApp;
  const dist = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-dist-'));
  beforeAll(async () => {
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'favicon.svg'), brandIconSvg);
    t = await createTestApp(testDatabaseDrivers()[0]);
    await registerWebApp(t.app, dist);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('every route of the spec answers the app (HTML), for GET and HEAD alike', async () => {
    const wrong: string[] = [];
    for (const url of SPEC_ROUTES) {
      for (const method of ['GET', 'HEAD'] as const) {
        const r = await t.app.inject({ method, url });
        if (r.statusCode !== 200 || !String(r.headers['content-type']).startsWith('text/html')) wrong.push(`${method} ${url}: ${r.statusCode} ${r.headers['content-type']}`);
        if (method === 'HEAD' && r.body !== '') wrong.push(`HEAD ${url} sent a body`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('API paths still answer JSON, never the app', async () => {
    for (const url of ['/cloud/v5/no/such', '/invoice/v5/no/such', '/user/v5/no/such', '/api/no/such', '/assets/missing.js']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
      expect(String(r.headers['content-type']), url).toContain('application/json');
    }
  });

  const built = path.join(repoRoot, 'apps/web/dist');
  it.skipIf(!existsSync(path.join(built, 'index.html')))('the built web app links and carries its icon and manifest', () => {
    const html = readFileSync(path.join(built, 'index.html'), 'utf8');
    expect(html).toContain('<link rel="icon" href="/favicon.svg"');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(readFileSync(path.join(built, 'favicon.svg'), 'utf8')).toBe(brandIconSvg);
    expect(JSON.parse(readFileSync(path.join(built, 'manifest.webmanifest'), 'utf8')).start_url).toBe('/yun');
  });
});

describe('the login site', () => {
  let t: SignInApp;
  beforeAll(async () => {
    t = await createSignInApp(testDatabaseDrivers()[0]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves its icon and manifest and answers HEAD / like GET /', async () => {
    const icon = await fetch(`${t.sso}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toBe(brandIconSvg);
    const manifest = await fetch(`${t.sso}/manifest.webmanifest`);
    expect(JSON.parse(await manifest.text())).toMatchObject({ name: 'CADCloud', icons: [{ src: '/favicon.svg' }] });
    const get = await fetch(`${t.sso}/`, { redirect: 'manual' });
    const head = await fetch(`${t.sso}/`, { method: 'HEAD', redirect: 'manual' });
    expect([head.status, head.headers.get('location')]).toEqual([get.status, get.headers.get('location')]);
    const page = await (await fetch(`${t.sso}/forgot`)).text();
    expect(page).toContain('<link rel="icon" href="/favicon.svg"');
    expect(page).toContain('<link rel="manifest" href="/manifest.webmanifest"');
  });
});
