import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { confirmOk, launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';

/** A red wall and a note: enough for the viewer to draw something another user can see. */
const drawing = writeAsciiDxf({
  layers: ['0', 'Walls'],
  entities: [
    { type: 'LINE', pairs: [[8, 'Walls'], [62, 1], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
    { type: 'TEXT', pairs: [[8, '0'], [10, 10], [20, 40], [40, 6], [1, 'Library']] },
  ],
});

describe('the public library in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let ctxA: BrowserContext;
  let ctxB: BrowserContext;
  let a: Page;
  let b: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-library-'));
  const dxf = path.join(work, 'villa.dxf');
  writeFileSync(dxf, drawing);
  const txt = path.join(work, 'readme.txt');
  writeFileSync(txt, 'not a drawing');

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    ctxA = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    ctxB = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    for (const c of [ctxA, ctxB]) await c.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    a = await ctxA.newPage();
    b = await ctxB.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  async function step<T>(p: Page, name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(p, `library-failed-${name}`);
      throw e;
    }
  }
  const api = async (p: Page, url: string, data: object = {}) => (await (await p.request.post(`${product.url}${url}`, { data: { data, clientInfo: { clientType: 'Web_PC' } } })).json()).bizData;
  const row = (p: Page, name: string) => p.locator(`[data-testid="row-${name}"]`);

  it('A publishes a drawing from the drive (a non-drawing is refused); it leaves A\'s used storage', async () => {
    await step(a, 'publish', async () => {
      await registerThroughLoginSite(a, product.url, '/yun/index', 'alice-library@example.com', 'Alice');
      await a.click('[data-testid=btn-upload]');
      await a.setInputFiles('[data-testid=file-input]', [dxf, txt]);
      await row(a, 'villa.dxf').waitFor({ timeout: 60_000 });
      await row(a, 'readme.txt').waitFor({ timeout: 60_000 });
      await a.keyboard.press('Escape');
      const before = await api(a, '/cloud/v5/folder/capacity');
      expect(before.used).toBe(drawing.length + 'not a drawing'.length);

      await row(a, 'readme.txt').locator('input[type=checkbox]').check();
      await a.click('[data-testid=btn-publish]');
      await a.getByText('Public sharing only for drawing formats').waitFor();
      await row(a, 'readme.txt').locator('input[type=checkbox]').uncheck();

      await row(a, 'villa.dxf').locator('input[type=checkbox]').check();
      await a.click('[data-testid=btn-publish]');
      await a.locator('[data-testid=publish-dialog]').getByText('Public drawings do not count toward your storage').waitFor();
      await confirmOk(a, 'OK');
      await a.getByText('Made public').waitFor();
      const after = await api(a, '/cloud/v5/folder/capacity');
      expect(after.used).toBe('not a drawing'.length);
      // the button now offers the way back for the selected public drawing
      await row(a, 'villa.dxf').locator('input[type=checkbox]').check();
      await a.locator('[data-testid=btn-publish]').getByText('Make private').waitFor();
      await a.locator('[data-testid="public-tag-villa.dxf"]').waitFor();
      expect(await a.locator('[data-testid="public-tag-readme.txt"]').count()).toBe(0);

      await a.locator('[data-testid=nav]').getByText('My public').click();
      await a.waitForURL(`${product.url}/yun/myPublic`);
      await a.locator('[data-testid="public-card-villa.dxf"]').waitFor();
    });
  });

  it('B finds it in the library, likes and collects it, sees it in My likes and My collection, and opens it in the viewer', async () => {
    await step(b, 'browse', async () => {
      await registerThroughLoginSite(b, product.url, '/yun/recent', 'bob-library@example.com', 'Bob');
      await b.locator('[data-testid=nav]').getByText('Public library').click();
      await b.waitForURL(`${product.url}/yun/public`);
      await b.fill('[data-testid=library-search] input', 'villa');
      await b.keyboard.press('Enter');
      const card = b.locator('[data-testid="public-card-villa.dxf"]');
      await card.waitFor();
      await card.getByText('By Alice').waitFor();

      await b.click('[data-testid="like-villa.dxf"]');
      await b.locator('[data-testid="like-count-villa.dxf"]').getByText('1', { exact: true }).waitFor();
      await b.click('[data-testid="collect-villa.dxf"]');
      await b.locator('[data-testid="collect-count-villa.dxf"]').getByText('1', { exact: true }).waitFor();
      expect(await b.locator('[data-testid="like-villa.dxf"]').getAttribute('aria-pressed')).toBe('true');
      await shoot(b, 'library-list');

      await b.locator('[data-testid=nav]').getByText('My likes').click();
      await b.waitForURL(`${product.url}/yun/myLike`);
      await b.locator('[data-testid=library-myLike] [data-testid="public-card-villa.dxf"]').waitFor();
      await b.locator('[data-testid=nav]').getByText('My collection').click();
      await b.waitForURL(`${product.url}/yun/myCollection`);
      await b.locator('[data-testid=library-myCollection] [data-testid="public-card-villa.dxf"]').waitFor();
      // what B sees is what the server counted
      const mine = await api(b, '/cloud/v5/file/queryMyLikePublicList');
      expect(mine.list.map((i: { name: string; likeCount: number; isCollected: number }) => [i.name, i.likeCount, i.isCollected])).toEqual([['villa.dxf', 1, 1]]);
    });

    await step(b, 'detail', async () => {
      await b.click('[data-testid="public-card-villa.dxf"]');
      await b.waitForURL(/\/yun\/public\/[^/]+$/);
      await b.locator('[data-testid=public-detail-name]').getByText('villa.dxf').waitFor();
      // opening the detail counted exactly one browse
      await b.locator('[data-testid=public-browse-count]').getByText('1', { exact: true }).waitFor();
      await b.locator('[data-testid="public-thumb-villa.dxf"]').waitFor();
      await b.fill('[data-testid=message-input]', 'Lovely villa');
      await b.click('[data-testid=message-send]');
      await b.locator('[data-testid=message-item]').getByText('Lovely villa').waitFor();
      await b.click('[data-testid=public-open]');
      await b.waitForURL(/\/yun\/view\//);
      await b.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await shoot(b, 'library-viewer');
      expect(await b.getByText('No permission to visit this file.').count()).toBe(0);
    });
  });

  it('on a phone (375 px) B reaches the library from the user page, sees the counts and the detail without sideways scrolling', async () => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      storageState: await ctxB.storageState(),
    });
    const m = await phone.newPage();
    try {
      await m.goto(`${product.url}/webH5/user`);
      await m.click('[data-testid=h5-public]');
      await m.waitForURL(`${product.url}/webH5/info/publicplatform`);
      const card = m.locator('[data-testid="public-card-villa.dxf"]');
      await card.waitFor();
      await m.locator('[data-testid="like-count-villa.dxf"]').getByText('1', { exact: true }).waitFor();
      expect(await m.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await m.locator('[data-testid="public-card-villa.dxf"] img').count()).toBe(1); // the owner's thumbnail, through the library
      await card.locator('.grid-name').tap();
      await m.waitForURL(/\/webH5\/info\/publicplatform\/[^/]+$/);
      await m.locator('[data-testid=message-item]').getByText('Lovely villa').waitFor();
      expect(await m.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shoot(m, 'library-phone-detail');
    } catch (e) {
      await shoot(m, 'library-failed-phone');
      throw e;
    } finally {
      await phone.close();
    }
  });

  it('A makes it private again: it leaves B\'s lists and B can no longer open it', async () => {
    await step(a, 'unpublish', async () => {
      const list = await api(a, '/cloud/v5/file/queryMyPublicList');
      expect(list.list[0]).toMatchObject({ name: 'villa.dxf', likeCount: 1, collectionCount: 1, totalMessageCount: 1 });
      await a.click('[data-testid="public-card-villa.dxf"]');
      await a.click('[data-testid=public-unpublish]');
      await confirmOk(a, 'OK');
      await a.getByText('Made private').waitFor();
      expect((await api(a, '/cloud/v5/folder/capacity')).used).toBe(drawing.length + 'not a drawing'.length);
    });
    await step(b, 'gone', async () => {
      await b.goto(`${product.url}/yun/myLike`);
      await b.locator('[data-testid=library-myLike] .ant-empty').waitFor();
      const fileId = (await api(a, '/cloud/v5/file/listTypeFiles', { includeTypes: ['drawing'] })).list[0].id;
      const scene = await b.request.get(`${product.url}/cloud/v5/drawing/scene?fileId=${fileId}`);
      expect((await scene.json()).bizData.code).toBe('drawing.noPermission');
    });
  });
});
