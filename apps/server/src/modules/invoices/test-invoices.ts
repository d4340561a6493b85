import type { TestApp } from '../../test/fixtures.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import { createOrdersService } from '../orders/orders.service.ts';
import { createInvoicesService } from './invoices.service.ts';

/** A sandbox order of `uid`'s, paid (tests of invoices and the operator page). */
export async function paidOrder(orders: OrdersService, uid: string, currency: 'CNY' | 'USD' = 'CNY') {
  const o = (await orders.create(uid, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'qr', currency })).order;
  const amountMinor = currency === 'CNY' ? 1500 : 499;
  await orders.applyEvent('sandbox', { eventId: `e-${o.orderId}`, orderId: o.orderId, providerTradeId: 't', kind: 'paid', amountMinor, currency, at: Date.now() });
  return o.orderId;
}

/** A new company whose admin `u` has requested one invoice (status 2) for a paid order; its id. */
export async function requestedInvoice(t: TestApp, u: { id: string; email: string }, companyName: string) {
  await createMembershipService(t.deps).ensureCatalog();
  const inv = createInvoicesService(t.deps);
  await inv.companies.createCompany({ name: companyName, adminEmail: u.email });
  const { titleId } = await inv.saveTitle(u.id, { name: companyName, taxId: '91310000X', address: '', phone: '', bank: '', account: '' });
  const orderId = await paidOrder(createOrdersService(t.deps, { log: () => {} }), u.id);
  return (await inv.create(u.id, { orderIds: [orderId], titleId })).invoiceId;
}
