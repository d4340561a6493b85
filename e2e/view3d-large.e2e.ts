import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sphereTriangles, spheresGlb } from '../packages/model3d/src/fixtures/spheres.ts';
import { shoot } from './harness.ts';
import { IPHONE_UA, phoneOverflow, postApi, serveWebAppFrom, uploadToDrive, waitFor3d } from './page-helpers.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';

/**
 * A big model in the viewer (issue 21 part 3), kept small for the test: 25 spheres, 198 000 triangles, with the coarse
 * level made above 50 000 (MODEL3D_LOD_ABOVE_TRIANGLES lowered). The full GLB's answer is held back until the coarse level is
 * seen, so the order is certain: the coarse level is drawn first, the bytes of the full one counted on screen, then full detail;
 * a drag draws the coarse level and the full model comes back when the camera rests.
 */
const COUNT = 25;
const RINGS = 45;

describe('/view3d of a big model', () => {
  let s: SignedIn;
  let fileId = '';
  const errors: string[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'view3d-large-'));

  beforeAll(async () => {
    writeFileSync(path.join(dir, 'spheres.glb'), await spheresGlb(COUNT, RINGS, 0.01));
    s = await signedInDesktop('view3d-large@example.com', 'Large 3D', { MODEL3D_LOD_ABOVE_TRIANGLES: '50000', MODEL3D_LOD_TARGET_TRIANGLES: '10000', FREE_3D_TRIALS: 'unlimited' });
    await uploadToDrive(s.page, s.product.url, path.join(dir, 'spheres.glb'));
    fileId = (await postApi(s.page, `${s.product.url}/cloud/v5/union/list`, { parentId: '0' })).list.find((i: { name: string }) => i.name === 'spheres.glb').id;
    const t0 = Date.now();
    const st = await waitFor3d(s.page, s.product.url, fileId, { start: true, timeoutMs: 120_000 });
    expect(st).toMatchObject({ transformStatus: 1, stats: { triangles: COUNT * sphereTriangles(RINGS) } });
    expect(st.lodUrl).toBeTruthy();
    console.log(`view3d-large: ${st.stats.triangles} triangles converted in ${Date.now() - t0} ms; coarse level ${st.stats.lod.triangles} triangles, ${st.stats.lod.bytes} bytes`);
  }, 300_000);
  afterAll(async () => s?.close());

  /** a page that records console errors and page errors, with the full GLB (not the coarse level) held back until the coarse level was seen */
  async function open(p: Page) {
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    p.on('pageerror', (e) => errors.push(String(e)));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await p.route((u) => u.pathname === '/cloud/v5/download/object', async (route) => {
      const g = new URL(route.request().url()).searchParams.get('g') ?? '';
      const grant = JSON.parse(Buffer.from(g.split('.')[0], 'base64url').toString());
      if (grant.k === 'glb' && !grant.l) await Promise.race([held, new Promise((r) => setTimeout(r, 60_000))]);
      await route.fallback();
    });
    // a slow line (≈ 400 KB/s): the full GLB's bytes arrive over a few seconds, counted on screen meanwhile
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 400 * 1024, uploadThroughput: -1 });
    await p.goto(`${s.product.url}/view3d?key=${encodeURIComponent(fileId)}`);
    // the coarse level drawn while the full model is still on its way, its bytes counted
    await p.locator('[data-testid=view3d-coarse]').waitFor({ timeout: 60_000 });
    expect(await p.evaluate(() => (window as any).__view3d.level)).toBe('coarse');
    const coarseDrawn = await p.evaluate(() => ((window as any).__view3d.renderNow(), (window as any).__view3d.renderer.info.render.triangles as number));
    release();
    await p.locator('[data-testid=view3d-bytes]').waitFor({ timeout: 10_000 });
    expect(await p.locator('[data-testid=view3d-bytes]').innerText()).toMatch(/Loading full detail… [\d.]+[KM]?B of [\d.]+[KM]?B/);
    await p.waitForFunction(() => (window as any).__view3d?.level === 'full', null, { timeout: 60_000 });
    await p.locator('[data-testid=view3d-bytes]').waitFor({ state: 'detached' });
    const fullDrawn = await p.evaluate(() => ((window as any).__view3d.renderNow(), (window as any).__view3d.renderer.info.render.triangles as number));
    expect(await p.evaluate(() => (window as any).__view3dLevels)).toEqual(['coarse', 'full']);
    console.log(`view3d-large: triangles drawn coarse ${coarseDrawn}, full ${fullDrawn}`);
    expect(fullDrawn).toBeGreaterThan(coarseDrawn * 4);
  }

  /** a drag on the canvas: coarse while it lasts, full again once the camera rests */
  async function orbit(p: Page, touch = false) {
    const c = (await p.locator('[data-testid=view3d-canvas]').boundingBox())!;
    const before = await p.evaluate(() => (window as any).__view3d.camera.position.toArray() as number[]);
    const level = () => p.evaluate(() => (window as any).__view3d.level as string);
    if (touch) {
      // one finger through CDP touch events (OrbitControls reads them as pointers)
      const cdp = await p.context().newCDPSession(p);
      const at = (x: number) => [{ x: c.x + c.width / 2 + x, y: c.y + c.height / 2 }];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
      for (let i = 1; i <= 6; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i * 15) });
      expect(await level()).toBe('coarse');
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    } else {
      await p.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
      await p.mouse.down();
      await p.mouse.move(c.x + c.width / 2 + 120, c.y + c.height / 2 + 40, { steps: 6 });
      expect(await level()).toBe('coarse');
      await p.mouse.up();
    }
    await p.waitForFunction(() => (window as any).__view3d.level === 'full', null, { timeout: 5000 });
    const after = await p.evaluate(() => (window as any).__view3d.camera.position.toArray() as number[]);
    expect(Math.hypot(...after.map((v, i) => v - before[i]))).toBeGreaterThan(0.5);
  }

  /**
   * The first snap on the big model: a click 1 px off a vertex of the sphere under the canvas' centre snaps onto a vertex
   * exactly; the hit mesh's edges came from the worker, and no task on the page's thread took over 200 ms meanwhile
   * (Long Tasks API: every task over 50 ms is reported). Drawing is held while it is timed: in software rendering one
   * frame of this model alone blocks the thread for 200–700 ms (logged), with or without a snap.
   */
  async function firstSnap(p: Page, tap: (x: number, y: number) => Promise<void>) {
    await p.click('[data-testid=view3d-measure]');
    const target = await p.evaluate(() => {
      const v = (window as any).__view3d;
      const rect = v.renderer.domElement.getBoundingClientRect();
      const { hit } = v.pickAt(rect.width / 2, rect.height / 2);
      const corner = hit.object.localToWorld(v.camera.position.clone().fromBufferAttribute(hit.object.geometry.getAttribute('position'), hit.face.a));
      const [x, y] = v.project(corner.toArray());
      // one frame of the full model, timed: in software rendering (SwiftShader) it blocks the page's thread for
      // hundreds of ms whatever the snap does; drawing is held while the snap is timed (the snap's own work is measured)
      const t0 = performance.now();
      v.renderNow();
      v.renderer.getContext().readPixels(0, 0, 1, 1, 0x1908, 0x1401, new Uint8Array(4));
      (window as any).__frameMs = performance.now() - t0;
      (window as any).__render = v.renderer.render;
      v.renderer.render = () => undefined;
      (window as any).__longTasks = [];
      new PerformanceObserver((l) => (window as any).__longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      return { x: rect.left + x + 1, y: rect.top + y, corner: v.model.worldToLocal(corner).toArray() as number[], asked: v.edges.workerAnswers as number };
    });
    await tap(target.x, target.y);
    await p.evaluate(() => (window as any).__view3d.measure.settled());
    // a last frame for the observer to report what ran until now
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    const after = await p.evaluate(() => {
      const v = (window as any).__view3d;
      const r = v.measure.result();
      // how far the snapped point is from the nearest vertex of the model (0: it is one)
      let nearest = Infinity;
      const at = v.camera.position.clone().set(...r.points[0].at);
      const q = at.clone();
      v.model.traverse((o: any) => {
        if (!o.isMesh) return;
        const pos = o.geometry.getAttribute('position');
        for (let i = 0; i < pos.count; i++) nearest = Math.min(nearest, o.localToWorld(q.fromBufferAttribute(pos, i)).distanceTo(at));
      });
      v.renderer.render = (window as any).__render;
      v.invalidate();
      return { r, nearest, answers: v.edges.workerAnswers as number, longTasks: (window as any).__longTasks as number[], frameMs: (window as any).__frameMs as number };
    });
    console.log(`view3d-large: first snap ${after.r.points[0]?.kind}; long tasks meanwhile ${JSON.stringify(after.longTasks.map(Math.round))} ms (drawing held; one frame of the full model takes ${Math.round(after.frameMs)} ms here); worker answers ${target.asked} → ${after.answers}`);
    expect(after.r.points).toHaveLength(1);
    expect(after.r.points[0].kind).toBe('vertex');
    // onto a vertex of the model exactly, near the one aimed at (the sphere's vertices are a few pixels apart)
    expect(after.nearest).toBeLessThan(1e-5);
    expect(Math.hypot(...after.r.points[0].model.map((c: number, k: number) => c - target.corner[k]))).toBeLessThan(0.2);
    expect(after.answers).toBeGreaterThan(target.asked);
    expect(Math.max(0, ...after.longTasks)).toBeLessThan(200);
    await p.click('[data-testid=view3d-measure]');
  }

  it('desktop: the coarse level first, then full detail; orbiting draws the coarse level, at rest the full model; hidden parts stay hidden on both', async () => {
    const tab = await s.page.context().newPage();
    try {
      await open(tab);
      await firstSnap(tab, (x, y) => tab.mouse.click(x, y));
      await orbit(tab);
      // a sphere hidden in the tree (three.js writes the node's space as _) stays hidden while the coarse level is drawn
      await tab.click('[data-testid=view3d-tree-toggle]');
      await tab.locator('[data-testid=view3d-tree] .ant-tree-title').getByText('Sphere_1', { exact: true }).click();
      await tab.click('[data-testid=tree-hide]');
      await tab.evaluate(() => (window as any).__view3d.beginMove());
      const hiddenOnCoarse = await tab.evaluate(() => {
        const v = (window as any).__view3d;
        let hidden = 0;
        v.scene.traverse((o: any) => o.name === 'Sphere_1' && !o.visible && hidden++);
        return { hidden, level: v.level };
      });
      expect(hiddenOnCoarse).toEqual({ hidden: 1, level: 'coarse' });
      await tab.evaluate(() => (window as any).__view3d.endMove());
      await tab.waitForFunction(() => (window as any).__view3d.level === 'full');
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(tab, 'view3d-large-desktop-failure');
      throw e;
    } finally {
      await tab.close();
    }
  });

  it('phone width: the same order, touch orbit, no sideways overflow', async () => {
    const phone = await s.browser.newContext({ viewport: { width: 375, height: 740 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true, storageState: await s.page.context().storageState() });
    await serveWebAppFrom(phone, s.product.url, s.web);
    const m = await phone.newPage();
    try {
      await open(m);
      expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
      await firstSnap(m, (x, y) => m.touchscreen.tap(x, y));
      await orbit(m, true);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(m, 'view3d-large-phone-failure');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
