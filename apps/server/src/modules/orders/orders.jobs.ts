import { ORDER_PATHS } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createOrdersService } from './orders.service.ts';
import { SANDBOX, SANDBOX_NOTIFY_JOB, SANDBOX_RETRY_DELAYS_MS, SANDBOX_SIGNATURE_HEADER, type SandboxNotifyJob } from './providers/sandbox.provider.ts';

export const ORDERS_TIMEOUT_JOB = 'orders.timeout';
/** how often unpaid orders past their expiry are timed out */
export const ORDERS_TIMEOUT_EVERY_MS = 60_000;

/** Sends one notification to the notify endpoint; the answer's status and body (the sandbox acknowledges with 200 'success'). */
export type NotificationSender = (url: string, rawBody: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>;

const httpSender: NotificationSender = async (url, rawBody, headers) => {
  const r = await fetch(url, { method: 'POST', body: rawBody, headers, signal: AbortSignal.timeout(15_000) });
  return { status: r.status, body: await r.text() };
};

/**
 * One delivery of a sandbox notification to our own notify endpoint, as the provider would make it. Not acknowledged
 * (an error, a 500, anything but 'success'): the next delivery is queued after the schedule's next delay (Alipay's:
 * 4 s, 2 min, 10 min, 10 min, 1 h, 2 h, 6 h, 15 h), then it gives up. Job ids are predictable per delivery, so a
 * retried job never queues a delivery twice.
 */
export async function deliverSandboxNotification(deps: Pick<AppDeps, 'config' | 'queue'>, job: SandboxNotifyJob, send: NotificationSender = httpSender) {
  const url = `${deps.config.publicUrl}${ORDER_PATHS.notify}/${SANDBOX}`;
  let acknowledged = false;
  let error: string | undefined;
  try {
    const r = await send(url, job.rawBody, { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: job.signature });
    acknowledged = r.status === 200 && r.body.trim() === 'success';
    if (!acknowledged) error = `answered ${r.status} ${r.body.slice(0, 100)}`;
  } catch (e) {
    error = String(e);
  }
  if (acknowledged) return { acknowledged, attempt: job.attempt };
  const delay = SANDBOX_RETRY_DELAYS_MS[job.attempt];
  if (delay === undefined) return { acknowledged, attempt: job.attempt, gaveUp: true, error };
  const eventId = (JSON.parse(job.rawBody) as { eventId: string }).eventId;
  const next: SandboxNotifyJob = { ...job, attempt: job.attempt + 1 };
  await deps.queue.enqueue(SANDBOX_NOTIFY_JOB, next, { jobId: `sandbox-notify-${eventId}-${next.attempt}`, delayMs: delay, attempts: 3 });
  return { acknowledged, attempt: job.attempt, nextInMs: delay, error };
}

/** orders.sandboxNotify (the sandbox's deliveries) and orders.timeout (unpaid orders past their expiry → status 7). */
export function registerOrdersJobs(queue: JobQueue, deps: AppDeps, o: { send?: NotificationSender } = {}) {
  const orders = createOrdersService(deps);
  queue.register<SandboxNotifyJob>(SANDBOX_NOTIFY_JOB, (job) => deliverSandboxNotification(deps, job, o.send));
  queue.register(ORDERS_TIMEOUT_JOB, async () => ({ timedOut: await orders.sweepTimeouts() }));
}
