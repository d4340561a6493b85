import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { clickUntilShown, countViewerPixels, IPHONE_UA, phoneOverflow, serveWebAppFrom, settle, snapshotWebApp } from './page-helpers.ts';

/** A red wall: enough to tell that the viewer drew the group's drawing. */
const generated = writeAsciiDxf({
  layers: ['0', 'Walls'],
  entities: [
    { type: 'LINE', pairs: [[8, 'Walls'], [62, 1], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
    { type: 'LINE', pairs: [[8, 'Walls'], [62, 1], [10, 0], [20, 0], [30, 0], [11, 0], [21, 60], [31, 0]] },
  ],
});

describe('groups in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-groups-'));
  const dxf = path.join(work, 'tower.dxf');
  writeFileSync(dxf, generated);
  const annex = path.join(work, 'annex.dxf');
  writeFileSync(annex, generated);
  let invite = '';
  let groupUrl = '';
  let web = '';
  async function newContext(o: Parameters<Browser['newContext']>[0]) {
    const ctx = await browser.newContext(o);
    await serveWebAppFrom(ctx, product.url, web);
    return ctx;
  }

  beforeAll(async () => {
    web = await snapshotWebApp();
    product = await startProduct();
    browser = await launchBrowser();
    const ctx = await newContext({ viewport: { width: 1280, height: 860 } });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
    alice = await ctx.newPage();
    await registerThroughLoginSite(alice, product.url, '/yun/group', 'alice@example.com', 'Alice');
    // the login site's redirect back is not routed to the private copy: load the page again from it
    await alice.goto(`${product.url}/yun/group`);
    const bctx = await newContext({ viewport: { width: 1280, height: 860 } });
    await bctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    bob = await bctx.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    if (web) rmSync(web, { recursive: true, force: true });
  });

  async function step<T>(p: Page, name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(p, `groups-failed-${name}`);
      throw e;
    }
  }

  it('A creates a group with an introduction and copies its invitation link', async () => {
    await step(alice, 'create', async () => {
      await alice.locator('[data-testid=groups-empty]').waitFor();
      await alice.click('[data-testid=group-create]');
      await alice.fill('[data-testid=group-name-input]', 'Tower B');
      await alice.fill('[data-testid=group-intro-input]', 'Structure drawings of tower B');
      await alice.click('[data-testid=group-form-ok]');
      await alice.locator('[data-testid=group-title]').getByText('Tower B').waitFor();
      expect(await alice.locator('[data-testid="group-row-count-Tower B"]').textContent()).toBe('1 member');
      expect(await alice.locator('[data-testid=group-intro]').textContent()).toBe('Structure drawings of tower B');
      groupUrl = alice.url();
      expect(groupUrl).toMatch(/\/yun\/group\?id=/);

      await alice.click('[data-testid=group-invite]');
      const input = alice.locator('[data-testid=group-invite-link]');
      await expect.poll(() => input.inputValue()).toMatch(/\/yun\/group\/join\/[A-Za-z0-9_-]+$/);
      invite = await input.inputValue();
      expect(invite.startsWith(product.url)).toBe(true);
      await alice.click('[data-testid=group-invite-copy]');
      await alice.getByText('Link copied').waitFor();
      expect(await alice.evaluate(() => navigator.clipboard.readText())).toBe(invite);
      await shoot(alice, 'groups-invite');
      await alice.keyboard.press('Escape');
    });
  });

  it('B opens the link signed out, signs up on the login site, comes back and joins', async () => {
    await step(bob, 'join', async () => {
      await registerThroughLoginSite(bob, product.url, new URL(invite).pathname, 'bob@example.com', 'Bob');
      await bob.goto(invite);
      await bob.locator('[data-testid=group-join-name]').getByText('Tower B').waitFor();
      await bob.getByText('Alice invites you to join the group').waitFor();
      await shoot(bob, 'groups-join');
      await bob.click('[data-testid=group-join-button]');
      await bob.waitForURL(/\/yun\/group\?id=/);
      await bob.locator('[data-testid=group-title]').getByText('Tower B').waitFor();
      expect(await bob.locator('[data-testid=group-member-count]').textContent()).toBe('2 members');
      // a member leaves; the owner's actions are not offered
      expect(await bob.locator('[data-testid=group-leave]').isVisible()).toBe(true);
      expect(await bob.locator('[data-testid=group-invite]').count()).toBe(0);
      await bob.locator('[data-testid=group-shares-empty]').waitFor();
    });
    await step(alice, 'members', async () => {
      await alice.goto(groupUrl);
      await alice.click('[data-testid=group-tab-members]');
      await alice.locator('[data-testid="group-member-bob@example.com"]').waitFor();
      expect(await alice.locator('[data-testid="group-member-remove-bob@example.com"]').isVisible()).toBe(true);
    });
  });

  it('A shares a drawing with the group, view only; B sees it, opens it in the viewer and has no download', async () => {
    await step(alice, 'share', async () => {
      await alice.goto(`${product.url}/yun/index`);
      await alice.click('[data-testid=btn-upload]');
      await alice.setInputFiles('[data-testid=file-input]', dxf);
      const row = alice.locator('[data-testid="row-tower.dxf"]');
      await row.waitFor({ timeout: 60_000 });
      await alice.keyboard.press('Escape');
      await row.locator('input[type=checkbox]').check();
      await alice.click('[data-testid=btn-share]');
      const dialog = alice.locator('.ant-modal').filter({ has: alice.locator('[data-testid=share-link-tab]') });
      await dialog.waitFor();
      await clickUntilShown(dialog.getByRole('tab', { name: 'Group' }), alice.locator('[data-testid="share-group-Tower B"]'));
      // at least one group
      await alice.click('[data-testid=share-group-send]');
      await alice.locator('[data-testid=share-group-error]').getByText('Please select at least one group').waitFor();
      await alice.locator('[data-testid="share-group-Tower B"]').click();
      const tab = alice.locator('[data-testid=share-group-tab]');
      await tab.getByRole('checkbox', { name: 'Downloadable' }).uncheck();
      await tab.getByRole('checkbox', { name: 'Can be saved to their cloud' }).uncheck();
      await alice.click('[data-testid=share-group-send]');
      await dialog.waitFor({ state: 'hidden' });
    });

    await step(bob, 'open', async () => {
      await bob.reload();
      const name = bob.locator('[data-testid="group-item-name-tower.dxf"]');
      await name.waitFor();
      const item = bob.locator('[data-testid="group-item-tower.dxf"]');
      expect(await item.getByText('View', { exact: true }).count()).toBe(1);
      expect(await item.locator('[data-testid=group-right-download]').count()).toBe(0);
      expect(await item.locator('[data-testid=group-right-save]').count()).toBe(0);
      expect(await item.getByText('Shared by Alice', { exact: false }).count()).toBe(1);
      // its menu offers opening, not download or save, and no cancel (b is neither sharer nor owner)
      await bob.click('[data-testid="group-item-actions-tower.dxf"]');
      await bob.locator('[data-testid=group-item-open]').waitFor();
      expect(await bob.locator('[data-testid=group-item-download]').count()).toBe(0);
      expect(await bob.locator('[data-testid=group-item-save]').count()).toBe(0);
      expect(await bob.locator('[data-testid=group-item-cancel]').count()).toBe(0);
      await bob.keyboard.press('Escape');
      await shoot(bob, 'groups-shared-items');

      await name.click();
      await bob.waitForURL(/\/yun\/group\/[^/]+\/view\/[^/]+\/[^/]+$/);
      await bob.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await settle(bob);
      expect(await countViewerPixels(bob, 'red')).toBeGreaterThan(50);
      expect(await bob.locator('[data-testid=group-view-download]').count()).toBe(0);
      await shoot(bob, 'groups-viewer');
      // the file is not B's: without the group's share token the scene is refused
      const fileId = bob.url().split('/').pop();
      const bare = await bob.request.get(`${product.url}/cloud/v5/drawing/scene?fileId=${fileId}&layout=Model`);
      expect((await bare.json()).rtnCode).not.toBe('0000000');
      await bob.goBack();
      await bob.locator('[data-testid="group-item-name-tower.dxf"]').waitFor();
    });
  });

  it('downloadable and can be dumped: B downloads it and saves it into a folder of their own cloud', async () => {
    await step(alice, 'share-all-rights', async () => {
      await alice.goto(`${product.url}/yun/index`);
      await alice.click('[data-testid=btn-upload]');
      await alice.setInputFiles('[data-testid=file-input]', annex);
      const row = alice.locator('[data-testid="row-annex.dxf"]');
      await row.waitFor({ timeout: 60_000 });
      await alice.keyboard.press('Escape');
      await row.locator('input[type=checkbox]').check();
      await alice.click('[data-testid=btn-share]');
      const dialog = alice.locator('.ant-modal').filter({ has: alice.locator('[data-testid=share-link-tab]') });
      await dialog.waitFor();
      await clickUntilShown(dialog.getByRole('tab', { name: 'Group' }), alice.locator('[data-testid="share-group-Tower B"]'));
      await alice.locator('[data-testid="share-group-Tower B"]').click();
      const tab = alice.locator('[data-testid=share-group-tab]');
      expect(await tab.getByRole('checkbox', { name: 'Downloadable' }).isChecked()).toBe(true);
      expect(await tab.getByRole('checkbox', { name: 'Can be saved to their cloud' }).isChecked()).toBe(true);
      await alice.click('[data-testid=share-group-send]');
      await dialog.waitFor({ state: 'hidden' });
    });
    await step(bob, 'save', async () => {
      await bob.goto(groupUrl);
      const item = bob.locator('[data-testid="group-item-annex.dxf"]');
      await item.waitFor();
      await item.locator('[data-testid=group-right-download]').waitFor();
      await item.locator('[data-testid=group-right-save]').waitFor();

      await bob.click('[data-testid="group-item-actions-annex.dxf"]');
      const [download] = await Promise.all([bob.waitForEvent('download'), bob.locator('[data-testid=group-item-download]').click()]);
      expect(download.suggestedFilename()).toBe('annex.dxf');

      await bob.click('[data-testid="group-item-actions-annex.dxf"]');
      await bob.locator('[data-testid=group-item-save]').click();
      await bob.locator('[data-testid=share-save-tree]').waitFor();
      await bob.click('[data-testid=share-save-ok]');
      await bob.getByText('Saved to my cloud').waitFor();
      await bob.goto(`${product.url}/yun/index`);
      await bob.locator('[data-testid="row-annex.dxf"]').waitFor();

      // the viewer of a downloadable group drawing has the download button
      await bob.goto(groupUrl);
      await bob.locator('[data-testid="group-item-name-annex.dxf"]').click();
      await bob.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await bob.locator('[data-testid=group-view-download]').waitFor();
      await bob.goBack();
    });
  });

  it('the group page at phone width (375 px)', async () => {
    const phone = await newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA });
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    // B's session: the same ticket cookie
    await phone.addCookies(await bob.context().cookies());
    const m = await phone.newPage();
    try {
      await step(m, 'phone', async () => {
        await m.goto(`${product.url}/webH5/group`);
        await m.locator('[data-testid="group-row-Tower B"]').waitFor();
        expect(await m.locator('[data-testid=h5-tab-group]').isVisible()).toBe(true);
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(1);
        await m.click('[data-testid="group-row-Tower B"]');
        await m.locator('[data-testid="group-item-name-tower.dxf"]').waitFor();
        // one pane at a time: the list hides while a group is open
        expect(await m.locator('[data-testid="group-row-Tower B"]').isVisible()).toBe(false);
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(1);
        await shoot(m, 'groups-phone');
        await m.click('[data-testid="group-item-name-tower.dxf"]');
        await m.waitForURL(/\/webH5\/group\/[^/]+\/view\//);
        await m.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
        expect(await m.locator('[data-testid=group-view-download]').count()).toBe(0);

        // the desktop invitation link opened on a phone keeps its token in the phone layout
        await m.goto(invite);
        await m.waitForURL(/\/webH5\/group\/join\/[A-Za-z0-9_-]+$/);
        await m.locator('[data-testid=group-join-open]').waitFor();
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(1);
        await m.click('[data-testid=group-join-open]');
        await m.waitForURL(/\/webH5\/group\?id=/);
        await m.locator('[data-testid="group-item-name-tower.dxf"]').waitFor();
      });
    } finally {
      await phone.close();
    }
  });
});
