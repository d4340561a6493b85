import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (served at /metrics, observability.routes.ts). One registry per process, as
 * exporters have: what a process did since it started. Names follow Prometheus' conventions (`_total`, `_seconds`).
 */
export const registry = new Registry();

export const httpRequests = new Counter({
  name: 'cadcloud_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'cadcloud_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const jobRuns = new Counter({
  name: 'cadcloud_jobs_total',
  help: 'Background job runs finished in this process, by job name and outcome (completed, failed)',
  labelNames: ['name', 'outcome'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'cadcloud_job_duration_seconds',
  help: 'Time a background job run took in this process, by job name',
  labelNames: ['name'] as const,
  buckets: [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900],
  registers: [registry],
});

export const sceneCache = new Counter({
  name: 'cadcloud_scene_cache_total',
  help: 'Drawing opens by where the scene came from: hit (stored), joined (a build in flight), miss (built)',
  labelNames: ['result'] as const,
  registers: [registry],
});

/** Jobs in the shared queue by state: read from the queue at each scrape (every process sees the same queue). */
export function watchQueueDepth(counts: () => Promise<Record<string, number>>) {
  queueDepthSource = counts;
}
let queueDepthSource: (() => Promise<Record<string, number>>) | null = null;
new Gauge({
  name: 'cadcloud_queue_jobs',
  help: 'Jobs in the queue by state (waiting includes delayed)',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    if (!queueDepthSource) return;
    const counts = await queueDepthSource().catch(() => null);
    if (counts) for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
  },
});
