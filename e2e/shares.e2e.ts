import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { confirmOk, launchBrowser, openRegistrationMail, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { clickUntilShown, countViewerPixels, IPHONE_UA, phoneOverflow, serveWebAppFrom, settle, snapshotWebApp } from './page-helpers.ts';

/** A red wall and a green box: enough to tell that the viewer drew the shared drawing. */
const generated = writeAsciiDxf({
  layers: ['0', 'Walls', 'Boxes'],
  entities: [
    { type: 'LINE', pairs: [[8, 'Walls'], [62, 1], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
    { type: 'LWPOLYLINE', pairs: [[8, 'Boxes'], [62, 3], [90, 4], [70, 1], [10, 20], [20, 20], [10, 60], [20, 20], [10, 60], [20, 50], [10, 20], [20, 50]] },
  ],
});


describe('shares in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let alice: Page;
  let visitorCtx: BrowserContext;
  let visitor: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-shares-'));
  const dxf = path.join(work, 'plan.dxf');
  writeFileSync(dxf, generated);
  let link = '';
  let code = '';
  let h5Url = '';
  let copied = '';

  let web = '';
  /** A browser context that gets the web app from the private copy. */
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
    await registerThroughLoginSite(alice, product.url, '/yun/index', 'alice@example.com', 'Alice');
    visitorCtx = await newContext({ viewport: { width: 1280, height: 860 } });
    await visitorCtx.addInitScript(() => localStorage.getItem('cadcloud.lang') || localStorage.setItem('cadcloud.lang', 'en'));
    visitor = await visitorCtx.newPage();
    visitor.on('pageerror', (e) => console.log('[visitor page error]', e.message));
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
      await shoot(p, `shares-failed-${name}`);
      throw e;
    }
  }

  it('A uploads a DXF and shares it by link: valid days and password checked, download off; link, code, copy and QR', async () => {
    await step(alice, 'create', async () => {
      await alice.click('[data-testid=btn-upload]');
      await alice.setInputFiles('[data-testid=file-input]', dxf);
      const row = alice.locator('[data-testid="row-plan.dxf"]');
      await row.waitFor({ timeout: 60_000 });
      await alice.keyboard.press('Escape');
      await row.locator('input[type=checkbox]').check();
      await alice.click('[data-testid=btn-share]');
      const dialog = alice.locator('.ant-modal').filter({ has: alice.locator('[data-testid=share-link-tab]') });
      await dialog.waitFor();

      // section 5 messages at the field; nothing is created while they show
      const days = alice.locator('[data-testid=share-days]');
      await days.fill('100');
      await alice.click('[data-testid=share-create]');
      await dialog.getByText('Please enter a positive integer 0-99!').waitFor();
      await days.fill('abc');
      await dialog.getByText('Please enter the correct number').waitFor();
      await days.fill('3');
      await alice.locator('[data-testid=share-password-input]').fill('ab1');
      await alice.click('[data-testid=share-create]');
      await dialog.getByText('The password must be 4 letters or digits').waitFor();
      expect(await alice.locator('[data-testid=share-result]').count()).toBe(0);
      await alice.locator('[data-testid=share-password-input]').fill('ab12');
      await alice.locator('[data-testid=share-right-download]').uncheck();
      await alice.click('[data-testid=share-create]');

      await alice.locator('[data-testid=share-result]').waitFor();
      link = await alice.locator('[data-testid=share-link]').inputValue();
      code = (await alice.locator('[data-testid=share-code]').textContent())!.trim();
      expect(link).toMatch(new RegExp(`^${product.url}/share/[A-Za-z0-9_-]+$`));
      expect(code).toMatch(/^\d{4}$/);
      expect(await alice.locator('[data-testid=share-password]').textContent()).toBe('ab12');
      expect(await alice.locator('[data-testid=share-validity]').textContent()).toBe('3 days');
      expect(await alice.locator('[data-testid=share-qr] svg').count()).toBe(1);
      await alice.click('[data-testid=share-copy]');
      await alice.getByText('Copied to the clipboard').waitFor();
      copied = await alice.evaluate(() => navigator.clipboard.readText());
      expect(copied).toContain(link);
      expect(copied).toContain(code);
      expect(copied).toContain('ab12');
      await shoot(alice, 'shares-dialog');
      await alice.click('[data-testid=share-close]');

      // the share as the API lists it: download off, save on
      const list = (await (await alice.request.post(`${product.url}/cloud/v5/share/list`, { data: { data: {}, clientInfo: { clientType: 'Web_PC' } } })).json()).bizData.list;
      expect(list).toHaveLength(1);
      expect(list[0].rights).toMatchObject({ canDownload: false, canSave: true });
      expect(list[0].validDays).toBe(3);
      h5Url = list[0].h5Url;
    });
  });

  it('/yun/share lists it with remaining time, state and rights', async () => {
    await step(alice, 'list', async () => {
      await alice.locator('[data-testid=nav]').getByText('My shares').click();
      await alice.waitForURL(`${product.url}/yun/share`);
      const row = alice.locator('[data-testid="share-row-plan.dxf"]');
      await row.waitFor();
      expect(await row.locator('[data-testid=share-state]').textContent()).toBe('Active');
      expect(await row.locator('[data-testid=share-remaining]').textContent()).toMatch(/^2 d 23 h$|^3 d 0 h$/);
      expect(await row.textContent()).toContain('Save to my cloud');
      expect(await row.textContent()).not.toContain('Download');
    });
  });

  it('a visitor opens the link: wrong code and wrong password are refused, then the list; no download anywhere; the drawing opens in the viewer', async () => {
    await step(visitor, 'extract', async () => {
      await visitor.goto(link);
      await visitor.locator('[data-testid=share-extract]').waitFor();
      expect(await visitor.locator('[data-testid=share-extract]').textContent()).toContain('Alice shared 1 item(s)');
      const wrong = code === '0000' ? '1111' : '0000';
      await visitor.fill('[data-testid=share-code-input]', wrong);
      await visitor.fill('[data-testid=share-password-input]', 'ab12');
      await visitor.click('[data-testid=share-extract-submit]');
      await visitor.locator('[data-testid=share-extract-error]').getByText('Wrong extraction code').waitFor();
      await visitor.fill('[data-testid=share-code-input]', code);
      await visitor.fill('[data-testid=share-password-input]', 'zz99');
      await visitor.click('[data-testid=share-extract-submit]');
      await visitor.locator('[data-testid=share-extract-error]').getByText('Wrong extraction code or password').waitFor();
      await visitor.fill('[data-testid=share-password-input]', 'ab12');
      await visitor.click('[data-testid=share-extract-submit]');

      await visitor.locator('[data-testid="share-item-plan.dxf"]').waitFor();
      expect(await visitor.locator('[data-testid="share-download-plan.dxf"]').count()).toBe(0);
      expect(await visitor.locator('[data-testid=share-save]').isVisible()).toBe(true);
      // a reload does not ask for the code again
      await visitor.reload();
      await visitor.locator('[data-testid="share-item-plan.dxf"]').waitFor();
      expect(await visitor.locator('[data-testid=share-extract]').count()).toBe(0);
      await shoot(visitor, 'shares-visitor-list');

      await visitor.click('[data-testid="share-open-plan.dxf"]');
      await visitor.waitForURL(/\/share\/[^/]+\/view\//);
      await visitor.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await settle(visitor);
      expect(await countViewerPixels(visitor, 'red')).toBeGreaterThan(50);
      expect(await visitor.locator('[data-testid=share-view-download]').count()).toBe(0);
      await shoot(visitor, 'shares-visitor-viewer');
      // the scene itself is refused without the token
      const bare = await visitor.request.get(`${product.url}/cloud/v5/drawing/scene?fileId=${visitor.url().split('/view/')[1]}&layout=Model`);
      expect((await bare.json()).rtnCode).not.toBe('0000000');
      await visitor.goBack();
      await visitor.locator('[data-testid="share-item-plan.dxf"]').waitFor();
    });
  });

  it('the same share at phone width (375 px): the phone address and the desktop one', async () => {
    const phone = await newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA });
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const m = await phone.newPage();
    try {
      await step(m, 'phone', async () => {
        expect(h5Url).toMatch(new RegExp(`^${product.url}/webH5/share/[^/]+/[^/]+$`));
        // the phone entry: paste what the sharer copied (link, code, password); the share's phone page opens with them filled in
        await m.goto(`${product.url}/webH5/share`);
        await m.fill('[data-testid=share-entry-input]', 'nothing to see');
        await m.click('[data-testid=share-entry-go]');
        await m.locator('[data-testid=share-entry-error]').getByText('This is not a share link').waitFor();
        await m.fill('[data-testid=share-entry-input]', copied);
        await m.click('[data-testid=share-entry-go]');
        await m.waitForURL((u) => u.href.startsWith(`${h5Url}?`));
        await m.locator('[data-testid=share-extract]').waitFor();
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(1);
        expect(await m.locator('[data-testid=share-code-input]').inputValue()).toBe(code);
        expect(await m.locator('[data-testid=share-password-input]').inputValue()).toBe('ab12');
        await m.click('[data-testid=share-extract-submit]');
        await m.locator('[data-testid="share-item-plan.dxf"]').waitFor();
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(1);
        expect(await m.locator('[data-testid="share-download-plan.dxf"]').count()).toBe(0);
        await shoot(m, 'shares-phone-list');
        await m.click('[data-testid="share-open-plan.dxf"]');
        await m.waitForURL(/\/webH5\/share\/[^/]+\/[^/]+\/view\//);
        await m.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
        await settle(m);
        expect(await countViewerPixels(m, 'red')).toBeGreaterThan(20);

        // the desktop address opened on a phone works at phone width too (this tab already holds the token)
        await m.goto(link);
        await m.locator('[data-testid="share-item-plan.dxf"]').waitFor();
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(1);
        await shoot(m, 'shares-phone-desktop-path');
      });
    } finally {
      await phone.close();
    }
  });

  it('user B signs in from the share page and saves the drawing to B\'s cloud', async () => {
    await step(visitor, 'save', async () => {
      await visitor.click('[data-testid=share-save]');
      // the visitor goes through the login site, registers, and lands back on the share page
      await visitor.waitForURL(/\/interaction\//);
      await visitor.click('a[href$="/register"]');
      await visitor.fill('#email', 'bob@example.com');
      await visitor.fill('#name', 'Bob');
      await visitor.fill('#password', 'correct horse');
      await visitor.fill('#confirm', 'correct horse');
      await visitor.click('button[type=submit]');
      await openRegistrationMail(visitor, product.url, 'bob@example.com');
      await visitor.waitForURL(new RegExp(`${link.replace(product.url, '')}\\?save=1|${link.replace(product.url, '')}$`));
      // no code asked again: the tab kept the token; the target folder dialog opens by itself
      await visitor.locator('[data-testid=share-save-tree]').waitFor();
      await visitor.locator('[data-testid=share-user]').getByText('Bob').waitFor();
      await visitor.click('[data-testid=share-save-ok]');
      await visitor.locator('[data-testid=share-saved]').waitFor();

      const mine = (await (await visitor.request.post(`${product.url}/cloud/v5/union/list`, { data: { data: { parentId: '0' }, clientInfo: { clientType: 'Web_PC' } } })).json()).bizData.list;
      expect(mine.map((i: { name: string }) => i.name)).toEqual(['plan.dxf']);
      await visitor.goto(`${product.url}/yun/index`);
      await visitor.locator('[data-testid="row-plan.dxf"]').waitFor();
      await shoot(visitor, 'shares-saved-in-b');
    });
  });

  it('A changes the password (4 digits only) and the valid days in /yun/share', async () => {
    await step(alice, 'edit', async () => {
      const row = alice.locator('[data-testid="share-row-plan.dxf"]');
      await row.locator('[data-testid^=share-more-]').click();
      await alice.locator('.ant-dropdown:not(.ant-dropdown-hidden) [data-testid=share-action-edit]').click();
      const form = alice.locator('[data-testid=share-edit-form]');
      await form.waitFor();
      const password = alice.locator('[data-testid=share-edit-password]');
      expect(await password.inputValue()).toBe('ab12');
      await password.fill('abcd');
      const ok = alice.locator('.ant-modal').filter({ has: form }).getByRole('button', { name: 'OK' });
      await ok.click();
      await form.getByText('Password must be 4 digits').waitFor();
      await password.fill('4321');
      await alice.locator('[data-testid=share-edit-days]').fill('0');
      await ok.click();
      await alice.getByText('Saved').waitFor();
      await row.locator('[data-testid=share-remaining]').getByText('Permanent').waitFor();
      // the new password opens it, the old one no longer does
      const extract = async (pw: string) => (await (await alice.request.post(`${product.url}/cloud/v5/share/extract`, { data: { data: { rand: link.split('/share/')[1], code, password: pw }, clientInfo: { clientType: 'Web_PC' } } })).json()).rtnCode;
      expect(await extract('4321')).toBe('0000000');
      expect(await extract('ab12')).not.toBe('0000000');
    });
  });

  it('A cancels the share; the link then shows "This share no longer exists" with the reason', async () => {
    await step(alice, 'cancel', async () => {
      const row = alice.locator('[data-testid="share-row-plan.dxf"]');
      await row.locator('[data-testid^=share-more-]').click();
      await alice.locator('.ant-dropdown:not(.ant-dropdown-hidden) [data-testid=share-action-cancel]').click();
      await confirmOk(alice, /OK/);
      await alice.getByText('Share cancelled').waitFor();
      await row.locator('[data-testid=share-state]').getByText('Cancelled').waitFor();
    });
    await step(visitor, 'gone', async () => {
      // even a tab that holds a token for it
      await visitor.goto(link);
      await visitor.locator('[data-testid=share-gone]').getByText('This share no longer exists').waitFor();
      expect(await visitor.locator('[data-testid=share-gone-reason]').textContent()).toBe('The sharer cancelled this share.');
      const fresh = await newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA });
      await fresh.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
      const p = await fresh.newPage();
      try {
        const res = await p.goto(h5Url);
        if (res?.status() !== 200) console.log('[phone gone]', h5Url, res?.status(), await res?.text());
        await p.locator('[data-testid=share-gone]').getByText('This share no longer exists').waitFor();
        expect(await phoneOverflow(p)).toBeLessThanOrEqual(1);
        await shoot(p, 'shares-gone-phone');
      } finally {
        await fresh.close();
      }
    });
  });

  it('e-mail and group tabs give the spec messages, then send; several shares are cancelled at once', async () => {
    await step(alice, 'email-group', async () => {
      const clientInfo = { clientType: 'Web_PC' };
      const g = await (await alice.request.post(`${product.url}/cloud/v5/group/create`, { data: { data: { name: 'Team' }, clientInfo } })).json();
      expect(g.rtnCode).toBe('0000000');
      await alice.goto(`${product.url}/yun/index`);
      await alice.locator('[data-testid="row-plan.dxf"] input[type=checkbox]').check();
      await alice.click('[data-testid=btn-share]');
      const tabs = alice.locator('.ant-modal .ant-tabs-tab');
      const openTab = (label: string, pane: string) => clickUntilShown(tabs.getByText(label, { exact: true }), alice.locator(`[data-testid=${pane}]`));
      await openTab('E-mail', 'share-email-tab');
      await alice.click('[data-testid=share-email-send]');
      await alice.locator('[data-testid=share-email-error]').getByText('Please enter the sending email address').waitFor();
      await alice.fill('[data-testid=share-emails]', 'carol@example.com, not-an-address');
      await alice.click('[data-testid=share-email-send]');
      await alice.locator('[data-testid=share-email-error]').getByText('E-mail format is incorrect').waitFor();
      await alice.fill('[data-testid=share-emails]', 'carol@example.com');
      await alice.click('[data-testid=share-email-send]');
      await alice.getByText('E-mail sent to 1 recipient(s)').waitFor();

      await openTab('Group', 'share-group-tab');
      await alice.locator('[data-testid="share-group-Team"]').waitFor();
      await alice.click('[data-testid=share-group-send]');
      await alice.locator('[data-testid=share-group-error]').getByText('Please select at least one group').waitFor();
      await alice.locator('[data-testid="share-group-Team"]').click();
      await alice.click('[data-testid=share-group-send]');
      await alice.getByText('Shared to 1 group(s)').waitFor();

      const active = async () => ((await (await alice.request.post(`${product.url}/cloud/v5/share/list`, { data: { data: {}, clientInfo } })).json()).bizData.list as { kind: string; state: string; validDays: number }[]).filter((x) => x.state === 'active');
      const now = await active();
      expect(now.map((x) => x.kind).sort()).toEqual(['group', 'link']);
      expect(now.find((x) => x.kind === 'link')!.validDays).toBe(7); // the Link tab's default went with the e-mail

      await alice.goto(`${product.url}/yun/share`);
      await alice.locator('[data-testid=share-kind]').getByText('Group').waitFor();
      await alice.locator('.ant-table-thead input[type=checkbox]').check();
      await alice.locator('.selection-note').getByText('2 share(s) selected').waitFor();
      await alice.click('[data-testid=shares-cancel-selected]');
      await confirmOk(alice, /OK/);
      await alice.getByText('Share cancelled').waitFor();
      expect(await active()).toEqual([]);
      await alice.locator('.selection-note').waitFor({ state: 'detached' }); // cancelled shares leave the selection
      await shoot(alice, 'shares-list-cancelled');
    });
  });

  it('a shared folder with the download right: browse into it, download the drawing from the list and from the viewer', async () => {
    const clientInfo = { clientType: 'Web_PC' };
    const api = async (p: string, data: unknown) => {
      const body = await (await alice.request.post(`${product.url}${p}`, { data: { data, clientInfo } })).json();
      expect(body.rtnCode, `${p}: ${body.msg}`).toBe('0000000');
      return body.bizData;
    };
    const folder = await api('/cloud/v5/folder/edit', { parentId: '0', name: 'Drawings' });
    const plan = (await api('/cloud/v5/union/list', { parentId: '0' })).list.find((i: { name: string }) => i.name === 'plan.dxf');
    await api('/cloud/v5/union/move', { fileIds: [plan.id], folderIds: [], moveToId: folder.id });
    const share = await api('/cloud/v5/share/create', { folderIds: [folder.id], validDays: 1, canDownload: true });

    const ctx = await newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const p = await ctx.newPage();
    try {
      await step(p, 'folder', async () => {
        await p.goto(share.url);
        expect(await p.locator('[data-testid=share-password-input]').count()).toBe(0); // no password on this one
        await p.fill('[data-testid=share-code-input]', share.code);
        await p.click('[data-testid=share-extract-submit]');
        await p.click('[data-testid="share-open-Drawings"]');
        await p.locator('[data-testid=share-crumbs]').getByText('Drawings').waitFor();
        expect(await p.locator('[data-testid=share-save]').count()).toBe(0); // this share does not grant saving
        const [fromList] = await Promise.all([p.waitForEvent('download'), p.click('[data-testid="share-download-plan.dxf"]')]);
        const saved = path.join(work, 'from-list.dxf');
        await fromList.saveAs(saved);
        expect(fromList.suggestedFilename()).toBe('plan.dxf');
        expect(readFileSync(saved).equals(Buffer.from(generated))).toBe(true);

        await p.click('[data-testid="share-open-plan.dxf"]');
        await p.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
        const [fromViewer] = await Promise.all([p.waitForEvent('download'), p.click('[data-testid=share-view-download]')]);
        expect(fromViewer.suggestedFilename()).toBe('plan.dxf');
        await p.goBack();
        await p.locator('[data-testid=share-crumbs]').getByText('All files').click();
        await p.locator('[data-testid="share-item-Drawings"]').waitFor();
        expect(await p.locator('[data-testid="share-item-plan.dxf"]').count()).toBe(0);
      });
    } finally {
      await ctx.close();
    }
  });

  it('a temporary share opens at /easyShare/{rand} and /webH5/simple/{rand}', async () => {
    const clientInfo = { clientType: 'Web_PC' };
    const body = await (await alice.request.post(`${product.url}/cloud/v5/union/list`, { data: { data: { parentId: '0' }, clientInfo } })).json();
    const folder = body.bizData.list.find((i: { name: string }) => i.name === 'Drawings');
    const share = (await (await alice.request.post(`${product.url}/cloud/v5/share/create`, { data: { data: { folderIds: [folder.id], kind: 'easy', validDays: 1 }, clientInfo } })).json()).bizData;
    expect(share.url).toMatch(/\/easyShare\/[^/]+$/);
    expect(share.h5Url).toMatch(/\/webH5\/simple\/[^/]+$/);
    for (const [url, viewport] of [[share.url, { width: 1280, height: 860 }], [share.h5Url, { width: 375, height: 812 }]] as const) {
      const ctx = await newContext({ viewport });
      await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
      const p = await ctx.newPage();
      try {
        await step(p, 'easy', async () => {
          await p.goto(url);
          await p.fill('[data-testid=share-code-input]', share.code);
          await p.click('[data-testid=share-extract-submit]');
          await p.click('[data-testid="share-open-Drawings"]');
          await p.locator('[data-testid="share-item-plan.dxf"]').waitFor();
          await p.click('[data-testid="share-open-plan.dxf"]');
          await p.waitForURL(new RegExp(`${url.replace(product.url, '')}/view/`));
          await p.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
          if (viewport.width === 375) expect(await phoneOverflow(p)).toBeLessThanOrEqual(1);
        });
      } finally {
        await ctx.close();
      }
    }
  });

  it('A shares from the phone item page (375 px): the dialog fits the phone', async () => {
    const clientInfo = { clientType: 'Web_PC' };
    const list = async (parentId: string) => (await (await alice.request.post(`${product.url}/cloud/v5/union/list`, { data: { data: { parentId }, clientInfo } })).json()).bizData.list as { id: string; name: string }[];
    const folder = (await list('0')).find((i) => i.name === 'Drawings')!;
    const plan = (await list(folder.id)).find((i) => i.name === 'plan.dxf')!;
    const ctx = await newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA, storageState: { ...(await alice.context().storageState()), origins: [] } });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const m = await ctx.newPage();
    try {
      await step(m, 'h5-item', async () => {
        await m.goto(`${product.url}/webH5/item/${plan.id}`);
        await m.click('[data-testid=h5-details]');
        await m.click('[data-testid=btn-share]');
        await m.locator('[data-testid=share-link-tab]').waitFor();
        await m.click('[data-testid=share-create]');
        await m.locator('[data-testid=share-result]').waitFor();
        expect(await m.locator('[data-testid=share-link]').inputValue()).toMatch(/\/share\/[A-Za-z0-9_-]+$/);
        expect(await m.locator('[data-testid=share-validity]').textContent()).toBe('7 days');
        const box = (await m.locator('.ant-modal').filter({ has: m.locator('[data-testid=share-result]') }).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(375);
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(1);
        await shoot(m, 'shares-phone-dialog');
      });
    } finally {
      await ctx.close();
    }
  });
});
