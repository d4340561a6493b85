import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAsciiDxf } from '../../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createHash } from 'node:crypto';
import { createDrawingsService, FAILURE_ENGINE } from './drawings.service.ts';
import { createDrawingFailuresRepository, WHOLE_DRAWING } from './drawing-failures.repository.ts';
import { SceneBuildError, type SceneBuilder } from './scene-builder.ts';

/** A builder that fails every build with `kind` and counts the builds. */
function failingBuilder(kind: SceneBuildError['kind'], detail?: string) {
  const seen = { n: 0 };
  const builder = {
    async build() {
      seen.n++;
      throw new SceneBuildError(kind, 'The drawing analysis failed!', detail);
    },
    close: async () => undefined,
    waiting: () => 0,
  } as unknown as SceneBuilder;
  return { builder, seen };
}

let n = 0;
const drawing = () => Buffer.from(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, '0'], [10, n++], [20, 0], [11, 100], [21, 0]] }] }));

/** The retry policy of remembered failures (drawings.service.ts), on both databases. */
for (const driver of testDatabaseDrivers()) {
  describe(`remembered scene failures on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
    });
    afterAll(async () => t?.close());

    async function opens(kind: SceneBuildError['kind'], retryMs: number, detail?: string) {
      const u = await t.createUser();
      const id = (await t.upload(u.token, 'd.dxf', drawing())).bizData.id;
      const { builder, seen } = failingBuilder(kind, detail);
      const service = createDrawingsService({ ...t.deps, config: { ...t.deps.config, sceneFailureRetryMs: retryMs } }, builder);
      const codes: string[] = [];
      for (let k = 0; k < 3; k++) codes.push(await service.scene({ uid: u.id, fileId: id }, 'Model').then(() => 'ok', (e) => e.code));
      return { codes, builds: seen.n };
    }

    it('unreadable and too complex: answered at once, every time, without a new build', async () => {
      expect(await opens('parse', 0)).toEqual({ codes: ['drawing.parseFailed', 'drawing.parseFailed', 'drawing.parseFailed'], builds: 1 });
      expect(await opens('tooComplex', 0)).toEqual({ codes: ['drawing.tooComplex', 'drawing.tooComplex', 'drawing.tooComplex'], builds: 1 });
    });

    it('a failure of another engine version does not stand: the drawing is built again', async () => {
      const u = await t.createUser();
      const bytes = drawing();
      const id = (await t.upload(u.token, 'd.dxf', bytes)).bizData.id;
      const md5 = createHash('md5').update(bytes).digest('hex');
      await createDrawingFailuresRepository(t.deps.db).record(md5, 'e0.old', WHOLE_DRAWING, 'parse', null, Date.now());
      const { builder, seen } = failingBuilder('tooComplex');
      const service = createDrawingsService(t.deps, builder);
      await service.scene({ uid: u.id, fileId: id }, 'Model').catch(() => undefined);
      expect(seen.n).toBe(1);
      // recording the new failure dropped the old engine's row
      expect(await createDrawingFailuresRepository(t.deps.db).find(md5, 'e0.old', 'model')).toEqual([]);
      expect((await createDrawingFailuresRepository(t.deps.db).find(md5, FAILURE_ENGINE, 'model')).map((f) => f.kind)).toEqual(['tooComplex']);
    });

    it('timeouts and crashes: answered at once within the retry window, built again after it', async () => {
      expect((await opens('timeout', 3_600_000)).builds).toBe(1);
      expect((await opens('crash', 3_600_000)).builds).toBe(1);
      expect((await opens('timeout', 0)).builds).toBe(3);
    });

    it('a build cut short by the server closing, and a missing layout, are not remembered', async () => {
      expect((await opens('crash', 3_600_000, 'closing')).builds).toBe(3);
      expect(await opens('layout', 3_600_000)).toEqual({ codes: ['drawing.layoutFailed', 'drawing.layoutFailed', 'drawing.layoutFailed'], builds: 3 });
    });
  });
}
