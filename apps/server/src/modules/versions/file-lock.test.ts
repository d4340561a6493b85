import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseDrivers, type TestDatabase } from '../../infra/db/test-databases.ts';
import { createFileLock } from './file-lock.ts';

for (const driver of testDatabaseDrivers()) {
  describe(`file lock across processes on ${driver.name}`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await driver.create();
    });
    afterAll(async () => t?.destroy());

    it('two lock registries (two processes) never run changes of one file at once; other files are not held up', async () => {
      const [a, b] = [createFileLock(t.db), createFileLock(t.db)];
      let inside = 0;
      let most = 0;
      const change = async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 15));
        inside--;
      };
      const other = b('other-file', async () => 'free');
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b)('file-1', change)));
      expect(most).toBe(1);
      expect(await other).toBe('free');
      expect(await t.db.selectFrom('file_locks').selectAll().execute()).toEqual([]);
    });

    it('a lock left by a killed process is taken over once its lease has passed', async () => {
      await t.db.insertInto('file_locks').values({ item_id: 'file-2', owner: 'dead', expires_at: Date.now() - 1 }).execute();
      expect(await createFileLock(t.db)('file-2', async () => 'ran')).toBe('ran');
    });
  });
}
