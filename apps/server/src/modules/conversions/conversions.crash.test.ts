import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashTestServer } from '../../test/crash-server.ts';
import { until } from '../../test/until.ts';

/** A drawing big enough that its PDF takes a while: `n` lines in a fan. */
function bigDxf(n: number): Buffer {
  const parts = ['0\nSECTION\n2\nENTITIES\n'];
  for (let i = 0; i < n; i++) parts.push(`0\nLINE\n8\nL${i % 50}\n10\n${i % 1000}\n20\n${Math.floor(i / 1000)}\n30\n0\n11\n${(i * 7) % 1000}\n21\n${Math.floor(i / 1000) + 5}\n31\n0\n`);
  parts.push('0\nENDSEC\n0\nEOF\n');
  return Buffer.from(parts.join(''));
}

describe('crash safety: a server killed (SIGKILL) in the middle of a conversion', () => {
  const crash = crashTestServer('convcrash', { email: 'convcrash@example.com', vipType: 1 });
  const { db, api, upload } = crash;
  const job = (taskId: string) => db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', `conversion-${taskId}`).executeTakeFirst();
  const conversion = (taskId: string) => db.selectFrom('conversions').select(['state', 'stage', 'error']).where('id', '=', taskId).executeTakeFirstOrThrow();

  beforeAll(() => crash.start(), 120_000);
  afterAll(() => crash.stop());

  /** kills the server once the job's attempt `attempt` is converting, and starts it again (a killed run on the last attempt: conversions.test.ts) */
  async function killDuring(taskId: string, attempt: number) {
    await until(async () => {
      const j = await job(taskId);
      const c = await conversion(taskId);
      return j?.state === 'active' && j.attempts === attempt && c.stage !== 'queued' && c.state === 0;
    }, 120_000);
    await crash.killAndRestart();
  }

  it('resumes the conversion after a restart: one result, the source no longer converting', async () => {
    const src = await upload('big.dxf', bigDxf(100_000));
    const task = (await api('/cloud/v5/file/task/transformBatch', { fileIds: [src.id], target: 'pdf' })).bizData.list[0];
    await killDuring(task.taskId, 1);
    const s = await until(async () => {
      const x = (await api('/cloud/v5/file/task/checkTaskStatusBatch', { fileIds: [src.id] })).bizData.list[0];
      return x.transformStatus !== 0 ? x : undefined;
    }, 240_000);
    expect(s).toMatchObject({ transformStatus: 1, stage: 'done' });
    expect((await job(task.taskId))?.attempts).toBe(2);
    const names = (await api('/cloud/v5/union/list', { parentId: '0' })).bizData.list.map((i: any) => i.name).sort();
    expect(names).toEqual(['big.dxf', 'big.pdf']);
    const info = (await api('/cloud/v5/file/getFileInfo', { fileId: src.id })).bizData;
    expect(info).toMatchObject({ transformStatus: 1, size: src.size, fileMD5: src.fileMD5 });
  }, 400_000);
});
