import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ORDER_PATHS, type Currency } from '@cadcloud/contracts';
import { orders as orderTexts, type Language } from '@cadcloud/i18n';
import type { AppDeps } from '../../app.deps.ts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { documentEndpoint } from '../../infra/http/endpoint.ts';
import type { OrdersService } from './orders.service.ts';
import { fromMinor } from './providers/payment-provider.ts';
import type { PayerAction } from './providers/sandbox.provider.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
const text = (lang: Language, key: string) => (orderTexts[lang] as Record<string, string>)[key] ?? key;
const actionBody = z.object({ orderId: z.string().min(1).max(64) });
const ACTIONS: Record<string, PayerAction> = { [ORDER_PATHS.sandboxApprove]: 'approve', [ORDER_PATHS.sandboxDecline]: 'decline', [ORDER_PATHS.sandboxTimeout]: 'timeout' };

/**
 * The built-in sandbox provider's side (issue 22 part 3): its pay page, which the QR code and the redirect both lead
 * to, and the payer's three choices. They exist only while some pay way uses the sandbox (else 404). Plain HTML forms:
 * no script and no outside asset, so the page runs under the product's Content-Security-Policy; the same endpoints
 * take JSON `{orderId}` so tests and operators complete payments without a browser.
 */
export const sandboxRoutes: FastifyPluginAsync<{ deps: AppDeps; orders: OrdersService }> = async (app, { deps, orders }) => {
  const providers = orders.providers;
  const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('not found');

  function page(lang: Language, p: { order_id: string; subject: string; amount_minor: number; currency: string; state: string }) {
    const amount = `${fromMinor(Number(p.amount_minor), p.currency as Currency)} ${p.currency}`;
    const open = p.state === 'open';
    const button = (path: string, key: string, testId: string, color: string) =>
      `<form method="post" action="${path}?lang=${lang}" style="display:inline"><input type="hidden" name="orderId" value="${esc(p.order_id)}"><button type="submit" data-testid="${testId}" style="margin:6px;padding:10px 18px;font-size:16px;border:0;border-radius:6px;color:#fff;background:${color}">${esc(text(lang, key))}</button></form>`;
    return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${esc(text(lang, 'sandbox.title'))}</title></head>
<body style="font-family:sans-serif;max-width:480px;margin:24px auto;padding:0 16px;color:#222">
<h1 style="font-size:22px">${esc(text(lang, 'sandbox.title'))}</h1>
<p style="color:#a60">${esc(text(lang, 'sandbox.note'))}</p>
<table style="width:100%;border-collapse:collapse;margin:12px 0">
<tr><td>${esc(text(lang, 'sandbox.plan'))}</td><td data-testid="sandbox-plan">${esc(p.subject)}</td></tr>
<tr><td>${esc(text(lang, 'sandbox.amount'))}</td><td data-testid="sandbox-amount">${esc(amount)}</td></tr>
<tr><td>${esc(text(lang, 'sandbox.order'))}</td><td style="word-break:break-all">${esc(p.order_id)}</td></tr>
</table>
<p data-testid="sandbox-state" data-state="${esc(p.state)}"><b>${esc(text(lang, `sandbox.state.${p.state}`))}</b></p>
${open ? `<div>${button(ORDER_PATHS.sandboxApprove, 'sandbox.approve', 'sandbox-approve', '#1677ff')}${button(ORDER_PATHS.sandboxDecline, 'sandbox.decline', 'sandbox-decline', '#d4380d')}${button(ORDER_PATHS.sandboxTimeout, 'sandbox.timeout', 'sandbox-timeout', '#8c8c8c')}</div>` : ''}
</body></html>`;
  }

  app.get<{ Params: { orderId: string } }>(`${ORDER_PATHS.sandboxPage}/:orderId`, async (req, reply) => {
    if (!providers.sandboxActive()) return notFound(reply);
    const p = await providers.sandbox().payment(req.params.orderId);
    if (!p) return notFound(reply);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(requestLanguage(req), p));
  });
  documentEndpoint(app, { method: 'get', path: `${ORDER_PATHS.sandboxPage}/{orderId}`, tag: 'orders', auth: 'none', envelope: 'none', summary: "The sandbox provider's pay page (HTML; where its QR code and redirect lead): the plan, the amount, and Approve / Decline / Time out. Only while some pay way uses the sandbox" });

  // the page's forms post urlencoded; tests and operators post JSON
  await app.register(async (forms) => {
    forms.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
    for (const [path, action] of Object.entries(ACTIONS)) {
      forms.post(path, async (req: FastifyRequest, reply) => {
        if (!providers.sandboxActive()) return notFound(reply);
        const body = (req.body ?? {}) as { orderId?: unknown; data?: { orderId?: unknown } };
        const parsed = actionBody.safeParse(body.data ?? body);
        if (!parsed.success) return reply.code(400).send({ error: 'orderId required' });
        const sandbox = providers.sandbox();
        const before = await sandbox.payment(parsed.data.orderId);
        if (!before) return notFound(reply);
        const sent = await sandbox.play(parsed.data.orderId, action);
        const after = (await sandbox.payment(parsed.data.orderId))!;
        const fromForm = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
        if (!fromForm) return { orderId: after.order_id, state: after.state, notified: !!sent };
        // the browser: a redirect payment goes back to the product's pay-success page, a scanned one shows the result
        if (action === 'approve' && sent && after.mode === 'redirect') return reply.redirect(after.return_url, 303);
        return reply.redirect(`${ORDER_PATHS.sandboxPage}/${encodeURIComponent(after.order_id)}?lang=${requestLanguage(req)}`, 303);
      });
      documentEndpoint(app, { method: 'post', path, tag: 'orders', auth: 'none', envelope: 'none', request: actionBody, summary: `The sandbox payer's '${action}' of an open payment (JSON {orderId} → {orderId, state, notified}; the pay page's form → a redirect). ${action === 'approve' ? 'Pays: a signed notification goes to /order/v5/notify/sandbox through the job queue, retried on Alipay\'s schedule until acknowledged; the order changes only when it arrives' : action === 'decline' ? 'The payment fails: notified as failed (order status 4)' : 'The provider closes the payment: notified as closed (order status 7)'}. Only while some pay way uses the sandbox` });
    }
  });
};
