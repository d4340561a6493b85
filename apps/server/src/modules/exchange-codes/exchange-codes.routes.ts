import * as c from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createExchangeCodesService } from './exchange-codes.service.ts';

/** Exchange codes (issue 22 part 4): redeem one, list one's own. The operator makes them with `npm run admin -- code create`. */
export const exchangeCodesRoutes: RouteModule = async (app, { deps }) => {
  const codes = createExchangeCodesService(deps);
  const tag = 'orders';
  const P = c.ORDER_PATHS;

  defineEndpoint(app, {
    path: P.exchange, tag, auth: 'user',
    summary: "Redeems an exchange code (/yun/coupon): case, spaces and dashes ignored. Grants the code's plan (stacked after a running period of the same kind) in the same transaction that marks the code exchanged, once however many redeem it at once. Refused: empty (exchange.empty, the spec's 'exchange code not empty'), unknown (exchange.unknown), past its expiry (exchange.expired), voided by the operator (exchange.void), already exchanged (exchange.used)",
    request: c.exchangeRequest, response: c.exchangeResult,
    handler: (d, { user }) => codes.redeem(user.id, d.code),
  });
  defineEndpoint(app, {
    path: P.exchangeList, tag, auth: 'user',
    summary: "The caller's redeemed codes, newest first: the code masked but its last 4 characters, plan, periods, status (ExchangeCodeStatus), when redeemed. Only the caller's own",
    request: c.exchangeListRequest, response: c.exchangeListResult,
    handler: (d, { user }) => codes.redeemedBy(user.id, d),
  });
};
