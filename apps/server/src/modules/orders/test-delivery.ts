import type { TestApp } from '../../test/fixtures.ts';
import { deliverSandboxNotification, type NotificationSender } from './orders.jobs.ts';
import { SANDBOX_NOTIFY_JOB, type SandboxNotifyJob } from './providers/sandbox.provider.ts';

/** Tests: our notify endpoint in process, where the sandbox's job would post over HTTP. */
export const injectSender =
  (t: TestApp): NotificationSender =>
  async (url, rawBody, headers) => {
    const r = await t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: rawBody, headers });
    return { status: r.statusCode, body: r.body };
  };

/** Tests: the sandbox's queued notifications, taken off the queue and delivered now by the job's handler. */
export async function deliverQueued(t: TestApp, send: NotificationSender = injectSender(t)) {
  const jobs = await t.db.db.selectFrom('jobs').selectAll().where('name', '=', SANDBOX_NOTIFY_JOB).where('state', '=', 'waiting').execute();
  const out = [];
  for (const j of jobs) {
    await t.db.db.deleteFrom('jobs').where('id', '=', j.id).execute();
    out.push(await deliverSandboxNotification(t.deps, JSON.parse(j.payload) as SandboxNotifyJob, send));
  }
  return out;
}
