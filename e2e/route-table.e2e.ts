import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { IPHONE_UA, postApi, serveWebAppFrom } from './page-helpers.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';

/**
 * Issue 23: every route of the spec's route table (section 2) renders a real page, on a desktop and on a 390 px
 * phone: not the app's 404 page, not a blank page, not raw JSON, and without console errors. `{fileId}`, `{shareId}`
 * and `{rand}` are filled with a real file and real shares of the signed-in user.
 */
const ROUTES = [
  '/yun', '/yun/index', '/yun/recent', '/yun/drawing', '/yun/threeModel', '/yun/picture', '/yun/other',
  '/yun/myPublic', '/yun/myCollection', '/yun/myLike',
  '/yun/trash', '/yun/share', '/yun/font', '/yun/order', '/yun/coupon', '/yun/transformer',
  '/yun/version/{fileId}',
  '/webH5', '/webH5/item/{fileId}',
  '/webH5/info', '/webH5/info/usercenter', '/webH5/info/publicplatform', '/webH5/info/feedback',
  '/webH5/share', '/webH5/share/{shareId}/{rand}',
  '/webH5/simple', '/webH5/simple/{easyRand}',
  '/share/{rand}',
  '/easyShare/{easyRand}',
  '/invoice', '/invoice/index', '/invoice/lite-intro', '/invoice/create', '/invoice/title', '/invoice/addTitle', '/invoice/record', '/invoice/detail', '/invoice/book', '/invoice/notice', '/invoice/reCreate',
  '/upgrade', '/feedback', '/contactus', '/declaration',
  '/secure/products',
  '/view3d?key={fileId}',
  // the quick-start help (spec section 2 lists it among the screens without a path)
  '/help',
] as const;

const DEVICES = {
  desktop: { viewport: { width: 1280, height: 860 } },
  phone: { viewport: { width: 390, height: 844 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true },
} as const;

/** What the page shows once it has settled: where it ended, its text, and whether it is the app's 404 page. */
async function look(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  const read = () => page.evaluate(() => ({
    path: location.pathname,
    text: (document.body.innerText || '').trim(),
    notFound: location.pathname === '/404' || !!document.querySelector('.ant-result-404'),
    contentType: document.contentType,
    appRoot: !!document.getElementById('root')?.children.length,
    busy: !!document.querySelector('.ant-spin-spinning'),
  }));
  // settled: the same address twice in a row (a page may redirect on the client, a layout for the other device),
  // with text and no spinner, or 15 s gone
  let last = await read();
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(300);
    const now = await read().catch(() => last);
    const stable = now.path === last.path && now.text.length > 0 && !now.busy;
    last = now;
    if (stable) break;
  }
  return last;
}

function problemOf(r: Awaited<ReturnType<typeof look>>): string | null {
  if (r.contentType !== 'text/html') return `not a page (${r.contentType})`;
  if (/^\s*[[{]/.test(r.text)) {
    try {
      JSON.parse(r.text);
      return 'raw JSON';
    } catch {
      // text that merely starts with a bracket
    }
  }
  if (r.notFound) return `the 404 page (ended at ${r.path})`;
  if (!r.appRoot || r.text.length < 2) return 'a blank page';
  return null;
}

describe('the spec\'s route table renders real pages', () => {
  let s: SignedIn;
  const contexts: Partial<Record<keyof typeof DEVICES, BrowserContext>> = {};
  const fill: Record<string, string> = {};

  beforeAll(async () => {
    s = await signedInDesktop('routes@example.com', 'Rita');
    const dxf = Buffer.from(writeAsciiDxf({ layers: ['0'], entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 10], [21, 10]] }] }));
    const up = await s.page.request.post(`${s.product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name: 'plan.dxf', mimeType: 'application/octet-stream', buffer: dxf } } });
    fill.fileId = (await up.json()).bizData.id;
    const link = await postApi(s.page, `${s.product.url}/cloud/v5/share/create`, { fileIds: [fill.fileId], kind: 'link' });
    fill.shareId = link.shareId;
    fill.rand = link.rand;
    fill.easyRand = (await postApi(s.page, `${s.product.url}/cloud/v5/share/create`, { fileIds: [fill.fileId], kind: 'easy' })).rand;
    const state = await s.page.context().storageState();
    for (const [name, opts] of Object.entries(DEVICES)) {
      const ctx = await s.browser.newContext({ ...opts, storageState: state });
      await serveWebAppFrom(ctx, s.product.url, s.web);
      await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
      contexts[name as keyof typeof DEVICES] = ctx;
    }
  });
  afterAll(async () => s?.close());

  it('the check itself sees the 404 page and raw JSON', async () => {
    const page = await contexts.desktop!.newPage();
    await page.goto(`${s.product.url}/no-such-page`);
    expect(problemOf(await look(page))).toMatch(/404/);
    await page.goto(`${s.product.url}/cloud/v5/no-such-call`);
    expect(problemOf(await look(page))).toMatch(/JSON|not a page/);
    await page.close();
  });

  for (const device of Object.keys(DEVICES) as (keyof typeof DEVICES)[]) {
    for (const route of ROUTES) {
      it(`${device} ${route}`, async () => {
        const page = await contexts[device]!.newPage();
        const errors: string[] = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(String(e)));
        try {
          const url = route.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(fill[k]));
          await page.goto(`${s.product.url}${url}`);
          const r = await look(page);
          expect(problemOf(r), `${device} ${url} → ${r.path}: ${r.text.slice(0, 200)}`).toBeNull();
          expect(errors, `${device} ${url}: console errors`).toEqual([]);
        } finally {
          await page.close();
        }
      });
    }
  }
});
