import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseDrivers } from '../db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { instrumentQueue } from './instrument-queue.ts';
import { until } from '../../test/until.ts';
import { buildApp } from '../../app.ts';

/**
 * Issue 16 item 5: an operator can ask whether a process is up and ready, scrape its metrics with a token, and
 * find the log lines of a failed request by the id its answer carries.
 */
describe('health, readiness, metrics and request ids', () => {
  let t: TestApp;
  const TOKEN = 'operator-metrics-token-1';
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0], { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => t?.close());

  it('/healthz says the process is up; /readyz checks database, storage and queue and says which one is down', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', queue: 'ok' } });
    // the storage stops answering: not ready, and the answer names it
    const exists = t.deps.storage.exists;
    t.deps.storage.exists = async () => {
      throw new Error('disk gone');
    };
    try {
      const down = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'not ready', checks: { database: 'ok', storage: 'disk gone', queue: 'ok' } });
    } finally {
      t.deps.storage.exists = exists;
    }
  });

  it('/metrics needs the operator token, and counts requests by route, jobs by name and the queue by state', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-token-of-same-len' } })).statusCode).toBe(401);
    const u = await t.createUser();
    await t.call('/cloud/v5/union/list', {}, u.token);
    const q = instrumentQueue(t.deps.queue);
    q.register('t.metered', async (p: { fail: boolean }) => {
      if (p.fail) throw new Error('no');
    });
    const ok = await q.enqueue('t.metered', { fail: false });
    const bad = await q.enqueue('t.metered', { fail: true }, { attempts: 1 });
    await until(async () => (await q.status(ok)).state === 'completed' && (await q.status(bad)).state === 'failed');
    const r = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/plain');
    expect(r.body).toMatch(/cadcloud_http_requests_total\{method="POST",route="\/cloud\/v5\/union\/list",status="200"\} \d+/);
    expect(r.body).toMatch(/cadcloud_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/cloud\/v5\/union\/list"\}/);
    expect(r.body).toMatch(/cadcloud_jobs_total\{name="t.metered",outcome="completed"\} 1/);
    expect(r.body).toMatch(/cadcloud_jobs_total\{name="t.metered",outcome="failed"\} 1/);
    expect(r.body).toMatch(/cadcloud_job_duration_seconds_count\{name="t.metered"\} 2/);
    expect(r.body).toMatch(/cadcloud_queue_jobs\{state="failed"\} \d+/);
    expect(r.body).toContain('cadcloud_scene_cache_total');
  });

  it('/metrics does not exist without a configured token', async () => {
    const plain = await createTestApp(testDatabaseDrivers()[0]);
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('every answer carries a request id, a plain one from the caller is kept, and a failure of ours names it', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(String(a.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'proxy-abc-123' } });
    expect(kept.headers['x-request-id']).toBe('proxy-abc-123');
    const hostile = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'x"\n<script>' } });
    expect(String(hostile.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    // an app of the same parts with one route that fails as a bug would
    const app = await buildApp(t.deps);
    app.get('/test-only/boom', async () => {
      throw new Error('boom');
    });
    const boom = await app.inject({ method: 'GET', url: '/test-only/boom', headers: { 'x-request-id': 'report-me-42' } });
    await app.close();
    expect(boom.statusCode).toBe(500);
    expect(boom.json().bizData).toMatchObject({ code: 'internal', requestId: 'report-me-42' });
    expect(boom.headers['x-request-id']).toBe('report-me-42');
  });
});
