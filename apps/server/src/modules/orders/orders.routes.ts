import * as c from '@cadcloud/contracts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { defineEndpoint, documentEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createOrdersService } from './orders.service.ts';
import { sandboxRoutes } from './sandbox.routes.ts';

/** Orders and payments (issue 22 parts 0 and 3): the signed-in user's orders, the providers' notifications, the sandbox's pages. */
export const ordersRoutes: RouteModule = async (app, { deps }) => {
  const orders = createOrdersService(deps);
  const tag = 'orders';
  const P = c.ORDER_PATHS;

  defineEndpoint(app, {
    path: P.create, tag, auth: 'user',
    summary: "Makes an order for a plan on sale (status 0 unpaid) and starts its payment at the provider serving the pay way (2 Alipay-type, 3 WeChat-type; the built-in sandbox unless the operator configured a real provider): mode qr answers qrPayload (the text of the QR code to scan), mode redirect a redirectUrl. Currency: the given one, else the request language's. The order times out (status 7) after ORDER_PAY_MINUTES unpaid. Errors: order.payWayRequired, membership.unknownPlan, order.notOnSale, order.createFailed ('Failed to create order')",
    request: c.orderCreateRequest, response: c.orderCreateResult,
    handler: (d, { user, req }) => orders.create(user.id, d, { language: requestLanguage(req) }),
  });
  defineEndpoint(app, {
    path: P.list, tag, auth: 'user',
    summary: "The caller's orders, newest first, paged; status filters by OrderStatus (3 = paid orders whose service period has ended, 1 = paid and running)",
    request: c.orderListRequest, response: c.orderListResult,
    handler: (d, { user }) => orders.list(user.id, d),
  });
  defineEndpoint(app, {
    path: P.detail, tag, auth: 'user',
    summary: "One of the caller's orders with its exchange-code records (index, masked code, status); order.notFound for another user's order",
    request: c.orderIdRequest, response: c.orderSchema,
    handler: (d, { user }) => orders.detail(user.id, d.orderId),
  });
  defineEndpoint(app, {
    path: P.cancel, tag, auth: 'user',
    summary: "Cancels one of the caller's orders while unpaid (0) or confirming (6), closing its payment at the provider: status 2. Any other status: order.cannotCancel ('Cannot cancel the order of {0}', the status's name). A payment the provider still completes afterwards is applied as paid (the payer's money is real)",
    request: c.orderIdRequest, response: c.orderSchema,
    handler: (d, { user, req }) => orders.cancel(user.id, d.orderId, { language: requestLanguage(req) }),
  });
  defineEndpoint(app, {
    path: P.status, tag, auth: 'user',
    summary: "The pay dialog's poll (every PAY_POLL_MS): the order's status and pay status. For an open order the provider is also asked, at most every ORDER_QUERY_SECONDS, so a lost notification still completes the order",
    request: c.orderIdRequest, response: c.orderStatusResult,
    handler: (d, { user }) => orders.status(user.id, d.orderId),
  });

  // the providers' notifications: their signatures cover the raw bytes, so this route reads the body as it came
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    raw.post<{ Params: { provider: string } }>(`${P.notify}/:provider`, async (req, reply) => {
      const r = await orders.notify(req.params.provider, { headers: req.headers, rawBody: typeof req.body === 'string' ? req.body : '' });
      if (!r) return reply.code(404).type('text/plain; charset=utf-8').send('unknown provider');
      return reply.code(r.ack.status).type(r.ack.contentType).send(r.ack.body);
    });
  });
  documentEndpoint(app, {
    method: 'post', path: `${P.notify}/{provider}`, tag, auth: 'none', envelope: 'none',
    bodyNote: "the provider's own format (sandbox: JSON signed with HMAC-SHA256 in X-Sandbox-Signature; alipay: form; wechat: JSON v3)",
    summary: "Asynchronous payment notifications of a provider (sandbox, alipay, wechat). Verified by the provider's signature (a forged one changes nothing and is answered 400), applied once per provider event, amount- and currency-checked (a mismatch fails the order, status 4, without granting), out-of-order safe; answered with the provider's acknowledgement",
  });

  await app.register(sandboxRoutes, { deps, orders });
};
