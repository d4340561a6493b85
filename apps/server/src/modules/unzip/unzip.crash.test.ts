import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { crashTestServer } from '../../test/crash-server.ts';
import { until } from '../../test/until.ts';
import { makeZip } from './test-archives.ts';

describe('crash safety: a server killed (SIGKILL) in the middle of a decompression', () => {
  const crash = crashTestServer('unzipcrash', { email: 'unzipcrash@example.com' });
  const { db, api, upload } = crash;

  beforeAll(() => crash.start(), 120_000);
  afterAll(() => crash.stop());

  it('resumes after a restart: every file once at its full size (no half file), the quota exactly the files', async () => {
    const entries = Array.from({ length: 400 }, (_, i) => ({ name: `many/${i}.bin`, data: new Uint8Array(randomBytes(20_000 + i)) }));
    const zip = await upload('many.zip', await makeZip(entries, { level: 0 }));
    const usedBefore = Number((await db.selectFrom('users').select('storage_used').executeTakeFirstOrThrow()).storage_used);
    const task = (await api('/cloud/v5/file/unzip', { fileId: zip.id })).bizData;
    await until(async () => {
      const s = (await api('/cloud/v5/zip/task/taskStatus', { taskId: task.taskId })).bizData;
      return s.status === 1 && s.unzip.entriesDone > 20;
    }, 120_000);
    await crash.killAndRestart();
    const end = await until(async () => {
      const s = (await api('/cloud/v5/zip/task/taskStatus', { taskId: task.taskId })).bizData;
      return s.status >= 2 ? s : undefined;
    }, 240_000);
    expect(end).toMatchObject({ status: 2, unzip: { entriesDone: 400, entriesTotal: 400 } });
    const files = await db.selectFrom('items').select(['name', 'size']).where('kind', '=', 1).where('name', '!=', 'many.zip').execute();
    expect(files).toHaveLength(400);
    for (const f of files) expect(Number(f.size)).toBe(20_000 + Number(f.name.split('.')[0]));
    const total = entries.reduce((a, e) => a + e.data.length, 0);
    expect(Number((await db.selectFrom('users').select('storage_used').executeTakeFirstOrThrow()).storage_used)).toBe(usedBefore + total);
  }, 400_000);
});
