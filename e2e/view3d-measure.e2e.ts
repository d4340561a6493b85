import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { shoot } from './harness.ts';
import { IPHONE_UA, postApi, serveWebAppFrom, uploadToDrive, waitFor3d } from './page-helpers.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';

/**
 * Measuring in the 3D viewer (issue 21), in a real browser against the real product, at desktop and phone width: an
 * OBJ with a box 40 × 20 × 10 and a 45° wedge beside it is converted by the server and opened at /view3d; the test
 * orbits, hides the wedge from the tree, cuts with the section plane (moved and flipped), measures the box's 20-unit
 * depth between two points snapped to the middle of its top edges, 90° at a box corner, 45° on the wedge and between
 * two faces. Clicks are placed where known model points are drawn, computed from the viewer's camera through the
 * page's `__view3d` handle (View3dPage sets it).
 */

type V3 = [number, number, number];
// points are written here Z up, as CAD users think of the model; an OBJ is Y up (the viewer shows it so): the file has (x, z, −y)
const toObj = (p: V3): V3 => [p[0], p[2], -p[1]];
const fromObj = (p: V3): V3 => [p[0], -p[2], p[1]];
const BOX: V3[] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i & 1 ? 40 : 0, i & 2 ? 20 : 0, i & 4 ? 10 : 0]);
// a right-angled wedge on the x axis: 20 long, 20 high, 20 deep; its slope rises at 45° from (80, y, 0) to (60, y, 20)
const WEDGE: V3[] = [[60, 0, 0], [80, 0, 0], [60, 0, 20], [60, 20, 0], [80, 20, 0], [60, 20, 20]];

/** An OBJ object of a convex solid: its faces (vertex indices) as triangles wound outwards (seen from outside counter-clockwise). */
function solid(name: string, v: V3[], faces: number[][], base: number): string {
  const c = v.reduce<number[]>((m, p) => m.map((x, k) => x + p[k] / v.length), [0, 0, 0]);
  const tris = faces.flatMap((f) => f.slice(1, -1).map((_, i) => [f[0], f[i + 1], f[i + 2]]));
  const out = tris.map(([a, b, d]) => {
    const u = v[b].map((x, k) => x - v[a][k]);
    const w = v[d].map((x, k) => x - v[a][k]);
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const outward = n.reduce((s, x, k) => s + x * (v[a][k] - c[k]), 0) > 0;
    return outward ? [a, b, d] : [a, d, b];
  });
  return `o ${name}\n${out.map((t) => `f ${t.map((i) => i + base + 1).join(' ')}`).join('\n')}\n`;
}

function boxAndWedgeObj(): string {
  const verts = [...BOX, ...WEDGE].map((p) => `v ${toObj(p).join(' ')}`).join('\n');
  const box = solid('Box', BOX, [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]], 0);
  const wedge = solid('Wedge', WEDGE, [[0, 1, 2], [3, 4, 5], [0, 1, 4, 3], [0, 2, 5, 3], [1, 2, 5, 4]], BOX.length);
  return `${verts}\n${box}${wedge}`;
}

describe('/view3d: measuring with snapping, at desktop and phone width', () => {
  let s: SignedIn;
  let fileId = '';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'view3d-measure-'));

  beforeAll(async () => {
    writeFileSync(path.join(dir, 'box-wedge.obj'), boxAndWedgeObj());
    s = await signedInDesktop('view3d-measure@example.com', 'Measure 3D');
    await uploadToDrive(s.page, s.product.url, path.join(dir, 'box-wedge.obj'));
    fileId = (await postApi(s.page, `${s.product.url}/cloud/v5/union/list`, { parentId: '0' })).list.find((i: { name: string }) => i.name === 'box-wedge.obj').id;
    const st = await waitFor3d(s.page, s.product.url, fileId, { start: true });
    expect(st).toMatchObject({ transformStatus: 1, stats: { triangles: 12 + 8 } });
  });
  afterAll(async () => s?.close());

  /** Console errors and uncaught exceptions of every page of the context: the test fails on any. */
  const watchErrors = (ctx: BrowserContext) => {
    const errors: string[] = [];
    ctx.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    ctx.on('weberror', (e) => errors.push(String(e.error())));
    return errors;
  };

  /** Page pixels where model point `p` (Z up) is drawn, moved `px` pixels towards where `towards` is. */
  const screenAt = (page: Page, p: V3, towards?: V3, px = 4) =>
    page.evaluate(({ p, towards, px }) => {
      const v = (window as any).__view3d;
      const rect = v.renderer.domElement.getBoundingClientRect();
      const at = (q: number[]) => {
        const w = v.model.localToWorld(v.camera.position.clone().set(...q));
        const [x, y] = v.project(w.toArray());
        return [rect.left + x, rect.top + y];
      };
      const a = at(p);
      if (!towards) return a;
      const b = at(towards);
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      return [a[0] + ((b[0] - a[0]) / len) * px, a[1] + ((b[1] - a[1]) / len) * px];
    }, { p: toObj(p), towards: towards && toObj(towards), px });

  /** Drawn pixels (off the background) of the canvas. */
  const drawn = (page: Page) =>
    page.evaluate(() => {
      const v = (window as any).__view3d;
      v.renderNow();
      const c = v.renderer.domElement as HTMLCanvasElement;
      const tmp = document.createElement('canvas');
      [tmp.width, tmp.height] = [c.width, c.height];
      const g = tmp.getContext('2d')!;
      g.drawImage(c, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 238) + Math.abs(d[i + 1] - 241) + Math.abs(d[i + 2] - 245) > 30) n++;
      return n;
    });

  const result = async (page: Page) => {
    // a click snaps once the worker found the hit mesh's edges: wait for the clicks placed so far
    await page.evaluate(() => (window as any).__view3d.measure.settled());
    const r = await page.evaluate(() => (window as any).__view3d.measure.result() as { points: { model: V3; kind: string }[]; distance: number | null; angle: number | null });
    return { ...r, points: r.points.map((p) => ({ ...p, model: fromObj(p.model) })) };
  };

  /** The whole check, with `tap` placing a click (mouse or finger) and `drag` orbiting. */
  async function measureEverything(page: Page, phone: boolean, tap: (x: number, y: number) => Promise<void>, drag: (x: number, y: number) => Promise<void>) {
    await page.goto(`${s.product.url}/view3d?key=${encodeURIComponent(fileId)}`);
    await page.locator('[data-testid=view3d-canvas]').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => (window as any).__view3d?.model);
    const full = await drawn(page);
    expect(full).toBeGreaterThan(phone ? 1500 : 5000);

    // orbit turns the camera; the Iso view brings it back to a known place
    const cam = () => page.evaluate(() => (window as any).__view3d.camera.position.toArray() as number[]);
    const before = await cam();
    const c = (await page.locator('[data-testid=view3d-canvas]').boundingBox())!;
    await drag(c.x + c.width / 2, c.y + c.height / 2);
    expect(Math.hypot(...(await cam()).map((v, i) => v - before[i]))).toBeGreaterThan(1);
    await page.locator('[data-testid=view3d-views]').getByText('Iso', { exact: true }).click();

    // hide the wedge from the tree: fewer pixels; show all: as before (the tree's panel narrows the canvas: counted with it open)
    await page.click('[data-testid=view3d-tree-toggle]');
    await page.locator('[data-testid=tree-Wedge]').click();
    const withTree = await drawn(page);
    await page.click('[data-testid=tree-hide]');
    const boxOnly = await drawn(page);
    expect(boxOnly).toBeLessThan(withTree * 0.9);
    expect(boxOnly).toBeGreaterThan(withTree * 0.3);
    await page.click('[data-testid=tree-show-all]');
    expect(await drawn(page)).toBe(withTree);
    await page.click('[data-testid=view3d-tree-toggle]');
    if (phone) await page.locator('.ant-drawer-open').waitFor({ state: 'detached' }).catch(() => undefined);
    // nothing selected: the highlight would change the colours counted below
    await page.evaluate(() => (window as any).__view3d.select(null));

    // the section across X: the slider moves the plane into the gap between box (x ≤ 40) and wedge (x ≥ 60), which cuts the wedge away
    await page.locator('[data-testid=view3d-section]').getByText('X', { exact: true }).click();
    const slider = (await page.locator('[data-testid=view3d-section-slider]').boundingBox())!;
    await page.mouse.click(slider.x + slider.width * 0.62, slider.y + slider.height / 2);
    const plane = () => page.evaluate(() => { const p = (window as any).__view3d.renderer.clippingPlanes[0]; return [p.normal.x, p.constant]; });
    const [nx, at] = await plane();
    expect(nx).toBe(-1);
    expect(at).toBeGreaterThan(42);
    expect(at).toBeLessThan(58);
    const cut = await drawn(page);
    expect(cut).toBeLessThan(full * 0.9);
    expect(cut).toBeGreaterThan(full * 0.3);

    // distance with the section on: two points just inside the box's top face, 4 px from the middle of its front and
    // back top edges, snap onto those edges: 20 apart (a face point would be off by the 4 px, over 1 %)
    await page.click('[data-testid=view3d-measure]');
    const top: V3 = [20, 10, 10];
    if (!phone) {
      // the pointer over the model shows what it would snap to: a square at a vertex, a diamond on an edge, a circle on a face
      const hover = async (p: V3, towards: V3 | undefined, kind: string) => {
        const [x, y] = await screenAt(page, p, towards);
        await page.mouse.move(x, y);
        await page.waitForFunction((k) => document.querySelector<HTMLElement>('[data-testid=view3d-snap]')?.dataset.snap === k && document.querySelector<HTMLElement>('[data-testid=view3d-snap]')!.style.display !== 'none', kind);
      };
      await hover([20, 0, 10], top, 'edge');
      await hover([40, 0, 10], top, 'vertex');
      await hover(top, undefined, 'face');
    }
    for (const edgeMiddle of [[20, 0, 10], [20, 20, 10]] as V3[]) {
      const [x, y] = await screenAt(page, edgeMiddle, top);
      // nothing over the canvas there (the measure panel)
      expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName, [x, y])).toBe('CANVAS');
      await tap(x, y);
    }
    const d = await result(page);
    expect(d.points.map((p) => p.kind)).toEqual(['edge', 'edge']);
    for (const p of d.points) expect(Math.abs(p.model[2] - 10)).toBeLessThan(1e-3);
    console.log(`view3d-measure (${phone ? 'phone' : 'desktop'}): 20-unit depth measured ${d.distance} between ${JSON.stringify(d.points.map((p) => p.model.map((v) => +v.toFixed(3))))}`);
    expect(Math.abs(d.distance! - 20) / 20).toBeLessThan(0.001);
    const shown = Number((await page.locator('[data-testid=view3d-distance]').innerText()).replace(/^[^\d]*/, ''));
    expect(Math.abs(shown - 20) / 20).toBeLessThan(0.001);
    expect(await page.locator('[data-testid=view3d-measure-label]').innerText()).toBe(String(shown));

    // the angle at the box's top corner (40, 0, 10) between its front and right top edges: 90°
    await page.locator('[data-testid=view3d-measure-mode]').getByText('Angle', { exact: true }).click();
    for (const corner of [[0, 0, 10], [40, 0, 10], [40, 20, 10]] as V3[]) await tap(...((await screenAt(page, corner, top)) as [number, number]));
    const right = await result(page);
    expect(right.points.map((p) => p.kind)).toEqual(['vertex', 'vertex', 'vertex']);
    expect(right.angle).toBeCloseTo(90, 6);
    await page.locator('[data-testid=view3d-angle]').getByText('Angle: 90.00°').waitFor();

    // flipped, the section keeps the wedge only: a click on the cut-away box places no point; the wedge's front face has 45° at (80, 0, 0)
    await page.click('[data-testid=view3d-section-flip]');
    expect((await plane())[0]).toBe(1);
    await tap(...((await screenAt(page, top)) as [number, number]));
    // (the finished 90° measurement stays: no new one was started)
    expect((await result(page)).points.map((p) => p.model)).toEqual(right.points.map((p) => p.model));
    const front: V3 = [66, 0, 6];
    for (const corner of [[60, 0, 0], [80, 0, 0], [60, 0, 20]] as V3[]) await tap(...((await screenAt(page, corner, front)) as [number, number]));
    const wedge = await result(page);
    expect(wedge.points.map((p) => p.kind)).toEqual(['vertex', 'vertex', 'vertex']);
    expect(wedge.angle).toBeCloseTo(45, 6);
    expect(await page.locator('[data-testid=view3d-measure-label]').innerText()).toBe('45.00°');

    // section off: the angle between the box's top face and the wedge's slope is 45°
    await page.locator('[data-testid=view3d-section]').getByText('Off').click();
    await page.locator('[data-testid=view3d-measure-mode]').getByText('Face angle').click();
    await tap(...((await screenAt(page, top)) as [number, number]));
    await tap(...((await screenAt(page, [70, 10, 10])) as [number, number]));
    expect((await result(page)).angle).toBeCloseTo(45, 4);
    await page.locator('[data-testid=view3d-angle]').getByText('Angle: 45.00°').waitFor();
  }

  it('desktop: orbit, hide, section moved and flipped, distance by edge snapping, 90° and 45° angles, no console errors', async () => {
    const errors = watchErrors(s.page.context());
    // the signed-in page itself (a new page of that context starts at about:blank, where its language script may not read localStorage)
    const { page } = s;
    try {
      await measureEverything(
        page,
        false,
        (x, y) => page.mouse.click(x, y),
        async (x, y) => {
          await page.mouse.move(x, y);
          await page.mouse.down();
          await page.mouse.move(x + 120, y + 40, { steps: 8 });
          await page.mouse.up();
        },
      );
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'view3d-measure-desktop-failure');
      throw e;
    }
  });

  it('phone width: the same by touch (taps snap within a finger\'s reach), no console errors', async () => {
    const phone = await s.browser.newContext({ viewport: { width: 375, height: 740 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true, storageState: await s.page.context().storageState() });
    await serveWebAppFrom(phone, s.product.url, s.web);
    const errors = watchErrors(phone);
    const m = await phone.newPage();
    try {
      const cdp = await phone.newCDPSession(m);
      const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', points: [number, number][]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
      await measureEverything(
        m,
        true,
        (x, y) => m.touchscreen.tap(x, y),
        async (x, y) => {
          await touch('touchStart', [[x, y]]);
          for (let i = 1; i <= 8; i++) await touch('touchMove', [[x + i * 12, y + i * 3]]);
          await touch('touchEnd', []);
        },
      );
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(m, 'view3d-measure-phone-failure');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
