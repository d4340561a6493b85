import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, registerThroughLoginSite, startProduct } from './harness.ts';
import { serveWebAppFrom, snapshotWebApp } from './page-helpers.ts';

/** What most browser test files set up first: the product, a browser and a desktop page of a new user, signed in. */
export interface SignedIn {
  product: Awaited<ReturnType<typeof startProduct>>;
  browser: Browser;
  /** at /yun/index, in English, 1280 × 860 */
  page: Page;
  /** the private copy of the web app the browser is served from (see snapshotWebApp) */
  web: string;
  close(): Promise<void>;
}

/**
 * Starts the product (with `env`), registers `email` through the login site and leaves the page on the drive. The
 * pages come from a private copy of the web app, so a rebuild by another test run on the machine cannot blank them.
 */
export async function signedInDesktop(email: string, name: string, env: Record<string, string> = {}): Promise<SignedIn> {
  const web = await snapshotWebApp();
  const product = await startProduct(env);
  const browser = await launchBrowser();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await serveWebAppFrom(ctx, product.url, web);
  // English unless the test has chosen another language since (kept across reloads)
  await ctx.addInitScript(() => localStorage.getItem('cadcloud.lang') || localStorage.setItem('cadcloud.lang', 'en'));
  const page = await ctx.newPage();
  await registerThroughLoginSite(page, product.url, '/yun/index', email, name);
  // the login site's redirect back is not routed to the private copy: load the page again from it
  await page.goto(`${product.url}/yun/index`);
  return {
    product, browser, page, web,
    async close() {
      await browser.close();
      await product.stop();
      rmSync(web, { recursive: true, force: true });
    },
  };
}
