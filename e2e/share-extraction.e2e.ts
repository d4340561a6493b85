/**
 * Issue 14, item 6 in the real share page: extraction with the proof of work solved by the page's web workers, the
 * 'try again in N s' countdown, and a share's code kind, at desktop and phone width. The product runs with every
 * extraction needing a proof (SHARE_FREE_FAILURES=0) of 2^16 work to start, so the test sees the workers do it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { IPHONE_UA, phoneOverflow, postApi, serveWebAppFrom, snapshotWebApp } from './page-helpers.ts';

const drawing = Buffer.from(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] }] }));

describe('share extraction with proof of work in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let web = '';
  let owner: Page;
  const errors: string[] = [];

  async function newContext(o: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
    const ctx = await browser.newContext(o);
    await serveWebAppFrom(ctx, product.url, web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    return ctx;
  }
  /** A page whose console errors and uncaught exceptions fail the test. */
  async function watched(ctx: BrowserContext): Promise<Page> {
    errors.length = 0;
    const p = await ctx.newPage();
    p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    p.on('console', (m) => {
      // (the refusals the test provokes are answered 200 with their envelope; the one 4xx a visitor's page sees is
      // the quiet "who am I" of the share header, 401 for a visitor: the browser logs it, the page does not)
      if (m.type() === 'error' && !m.location().url.endsWith('/user/v5/sysuser/userInfo')) errors.push(`console: ${m.text()} (${m.location().url})`);
    });
    return p;
  }
  async function step<T>(p: Page, name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(p, `share-extraction-failed-${name}`);
      throw e;
    }
  }
  /** A share of a fresh upload of the owner's, through the API (the dialog has its own test). */
  async function share(data: object) {
    const name = `plan-${Math.random().toString(36).slice(2, 8)}.dxf`;
    const r = await owner.request.post(`${product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name, mimeType: 'application/octet-stream', buffer: drawing } } });
    const id = (await r.json()).bizData.id as string;
    return { name, ...(await postApi<{ rand: string; code: string; shareId: string; h5Url: string; url: string }>(owner, `${product.url}/cloud/v5/share/create`, { fileIds: [id], ...data })) };
  }
  /** The share/extract requests a page sends, with what they carried. */
  function extractRequests(p: Page) {
    const seen: { challenge?: string; proof?: string; code: string }[] = [];
    p.on('request', (req) => {
      if (req.url().endsWith('/cloud/v5/share/extract')) seen.push(JSON.parse(req.postData() ?? '{}').data);
    });
    return seen;
  }

  beforeAll(async () => {
    web = await snapshotWebApp();
    product = await startProduct({ SHARE_FREE_FAILURES: '0', SHARE_POW_BASE_BITS: '16', SHARE_ATTACKER_HASH_RATE: String(1e11 / 4) });
    browser = await launchBrowser();
    owner = await (await newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await registerThroughLoginSite(owner, product.url, '/yun/index', 'owner@example.com', 'Owner');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    if (web) rmSync(web, { recursive: true, force: true });
  });

  it('desktop: a wrong code, then the right one, each proven by the page; a script without a proof gets no answer on the code', async () => {
    const s = await share({ validDays: 7 });
    expect(s.code).toMatch(/^\d{4}$/);
    const ctx = await newContext({ viewport: { width: 1280, height: 860 } });
    const p = await watched(ctx);
    const sent = extractRequests(p);
    await step(p, 'desktop', async () => {
      await p.goto(s.url);
      await p.locator('[data-testid=share-extract]').waitFor();
      expect(await p.locator('[data-testid=share-code-input]').getAttribute('placeholder')).toBe('Enter the 4-digit extraction code');
      expect(await p.locator('[data-testid=share-code-input]').getAttribute('inputmode')).toBe('numeric');
      const wrong = s.code === '0000' ? '1111' : '0000';
      await p.fill('[data-testid=share-code-input]', wrong);
      await p.click('[data-testid=share-extract-submit]');
      await p.locator('[data-testid=share-extract-error]').getByText('Wrong extraction code').waitFor({ timeout: 120_000 });
      await p.fill('[data-testid=share-code-input]', s.code);
      await p.click('[data-testid=share-extract-submit]');
      await p.locator(`[data-testid="share-item-${s.name}"]`).waitFor({ timeout: 120_000 });
      await shoot(p, 'share-extraction-desktop');
    });
    // every attempt carried a challenge and its proof, found by the page (checked by the server: it answered)
    expect(sent.map((x) => x.code)).toEqual([s.code === '0000' ? '1111' : '0000', s.code]);
    for (const x of sent) expect([typeof x.challenge, x.proof]).toEqual(['string', expect.stringMatching(/^[0-9a-z]+$/)]);
    // the same right code from a script without a proof: not read
    const bare = await (await p.request.post(`${product.url}/cloud/v5/share/extract`, { data: { data: { rand: s.rand, code: s.code } } })).json();
    expect([bare.bizData.code, bare.bizData.shareToken]).toEqual(['share.proofRequired', undefined]);
    expect(bare.bizData.bits).toBeGreaterThanOrEqual(16);
    await ctx.close();
    expect(errors).toEqual([]);
  });

  it('after wrong codes the page counts down the wait the server asks for, then lets the right code in', async () => {
    const s = await share({ validDays: 3 });
    const ctx = await newContext({ viewport: { width: 1280, height: 860 } });
    const p = await watched(ctx);
    await step(p, 'countdown', async () => {
      await p.goto(s.url);
      await p.locator('[data-testid=share-extract]').waitFor();
      const button = p.locator('[data-testid=share-extract-submit]');
      const free = () => p.waitForFunction(() => {
        const b = document.querySelector('[data-testid=share-extract-submit]') as HTMLButtonElement | null;
        return !!b && !b.disabled && !b.classList.contains('ant-btn-loading');
      }, undefined, { timeout: 120_000 });
      // three wrong codes are answered at once; the third and the fourth each ask this client to wait (1 s, 2 s)
      for (let i = 1; i <= 4; i++) {
        await free();
        await p.fill('[data-testid=share-code-input]', String((Number(s.code) + i) % 10_000).padStart(4, '0'));
        await button.click();
        await p.waitForFunction((n) => document.querySelectorAll('[data-testid=share-extract-error]').length > 0 && !document.querySelector('[data-testid=share-extract-submit].ant-btn-loading'), i, { timeout: 120_000 });
      }
      await p.waitForFunction(() => /Try again in [12] s/.test(document.querySelector('[data-testid=share-extract-submit]')?.textContent ?? ''), undefined, { timeout: 2_000 });
      expect(await button.isDisabled()).toBe(true);
      expect(await p.locator('[data-testid=share-extract-error]').textContent()).toBe('Wrong extraction code');
      await shoot(p, 'share-extraction-countdown');
      await free();
      expect(await button.textContent()).toMatch(/Extract files/);
      await p.fill('[data-testid=share-code-input]', s.code);
      await button.click();
      await p.locator(`[data-testid="share-item-${s.name}"]`).waitFor({ timeout: 120_000 });
    });
    await ctx.close();
    expect(errors).toEqual([]);
  });

  it('phone width (375 px): a permanent share\'s 8-character code, typed in capitals, through the phone address', async () => {
    const s = await share({ validDays: 0 });
    expect(s.code).toMatch(/^[2-9a-hjkmnp-z]{8}$/);
    const ctx = await newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA });
    const m = await watched(ctx);
    const sent = extractRequests(m);
    await step(m, 'phone', async () => {
      await m.goto(s.h5Url);
      await m.locator('[data-testid=share-extract]').waitFor();
      expect(await m.locator('[data-testid=share-code-input]').getAttribute('placeholder')).toBe('Enter the 8-character extraction code');
      expect(await m.locator('[data-testid=share-code-input]').getAttribute('inputmode')).toBe('text');
      await m.fill('[data-testid=share-code-input]', s.code.toUpperCase());
      await m.locator('[data-testid=share-extract-submit]').tap();
      await m.locator(`[data-testid="share-item-${s.name}"]`).waitFor({ timeout: 120_000 });
      expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
      await shoot(m, 'share-extraction-phone');
    });
    expect(sent).toHaveLength(1);
    expect(sent[0].proof).toMatch(/^[0-9a-z]+$/);
    await ctx.close();
    expect(errors).toEqual([]);
  });
});
