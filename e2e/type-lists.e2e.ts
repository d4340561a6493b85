import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { shoot } from './harness.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';

/**
 * Every list filter of the spec's file type groups, end to end: one file of each group is uploaded through the upload
 * dialog, and each list (/yun/drawing, threeModel, picture, other, recent) shows exactly the files of its group.
 * The 3D group once reached the server as `threed` and matched nothing: 3D files landed under "Other".
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const files: Record<string, Buffer | string> = {
  'plan.dxf': '0\nSECTION\n2\nENTITIES\n0\nLINE\n8\n0\n10\n0\n20\n0\n11\n10\n21\n10\n0\nENDSEC\n0\nEOF\n',
  'photo.png': PNG,
  'part.step': 'ISO-10303-21;\nEND-ISO-10303-21;\n',
  'mesh.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n',
  'notes.txt': 'notes',
  'pack.zip': Buffer.from('504b0506000000000000000000000000000000000000', 'hex'),
};
const expected: Record<string, string[]> = {
  drawing: ['plan.dxf'],
  threeModel: ['mesh.obj', 'part.step'],
  picture: ['photo.png'],
  other: ['notes.txt', 'pack.zip'],
  recent: Object.keys(files).sort(),
};

describe('the type-group lists in a real browser', () => {
  let product: SignedIn['product'];
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-types-'));
  const paths = Object.entries(files).map(([name, body]) => {
    const p = path.join(work, name);
    writeFileSync(p, body);
    return p;
  });

  let session: SignedIn | undefined;
  beforeAll(async () => {
    session = await signedInDesktop('types@example.com', 'Tia');
    ({ product, page } = session);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('each list shows the files of its group and no other', async () => {
    try {
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', paths);
      for (const name of Object.keys(files)) await page.locator(`[data-testid="row-${name}"]`).waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      for (const [list, names] of Object.entries(expected)) {
        await page.goto(`${product.url}/yun/${list}`);
        for (const name of names) await page.locator(`[data-testid="row-${name}"]`).waitFor({ timeout: 15_000 });
        const shown = await page.locator('[data-testid^="row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice(4)).sort());
        expect({ list, shown }).toEqual({ list, shown: names });
      }
    } catch (e) {
      await shoot(page, 'types-failed');
      throw e;
    }
  });
});
