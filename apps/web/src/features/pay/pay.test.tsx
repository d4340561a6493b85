// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { App } from 'antd';
import { PAY_POLL_MS, PAY_SUCCESS_CLOSE_MS, type PlanInfo } from '@cadcloud/contracts';
import { setLanguage } from '../../lib/i18n.ts';
import { stubBrowserApis } from '../../testing/jsdom.ts';
import { PayDialog } from './PayDialog.tsx';
import { OrderStatusTag, OrdersPage } from './OrdersPage.tsx';
import { CouponPage } from './CouponPage.tsx';
import { FreeUnfreezeDialog } from './Freeze.tsx';
import { savingOf, UpgradePage } from './UpgradePage.tsx';
import { UserProvider } from '../auth/user.tsx';
import { formatMoney } from './api.ts';
import { payPathIn } from './plans.ts';

const ok = (bizData: unknown) => new Response(JSON.stringify({ rtnCode: '0000000', msg: 'success', bizData }), { headers: { 'content-type': 'application/json' } });
const refuse = (msg: string) => new Response(JSON.stringify({ rtnCode: '2000001', msg, bizData: null }), { headers: { 'content-type': 'application/json' } });
const GB = 1024 ** 3;
const plan = (code: string, kind: PlanInfo['kind'], durationDays: number, amount: number, currency: 'USD' | 'CNY' = 'USD'): PlanInfo => ({ code, version: 1, kind, durationDays, storageBytes: 5 * GB, rights: [], expiryWarning: true, price: { currency, amount } });
const PLANS = [plan('ML1', 'premium', 30, 4.99), plan('ML2', 'premium', 365, 47.99), plan('ML3', 'super', 30, 9.99), plan('ML4', 'premium', 30, 4.99), plan('SE10', 'storage', 30, 1.49)];
const order = { orderId: 'o1', planCode: 'ML1', planKind: 'premium', status: 0, payStatus: 0, orderType: 1, payWay: 2, currency: 'USD', amount: 4.99, payAmount: 0, createdAt: 1, paidAt: null, serviceEndsAt: null, exchangeCodes: [] };

let calls: { url: string; data: any }[] = [];
let answer: (url: string, data: any) => Response;

beforeAll(() => {
  stubBrowserApis();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const data = JSON.parse(String(init?.body ?? '{}')).data;
    calls.push({ url, data });
    return answer(url, data);
  });
  setLanguage('en');
});
beforeEach(() => {
  calls = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
afterAll(() => vi.unstubAllGlobals());

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}
function renderDialog(onClose = () => undefined) {
  return render(
    <MemoryRouter initialEntries={['/upgrade']}>
      <App>
        <Routes>
          <Route path="/upgrade" element={<PayDialog kind="account" plans={PLANS} onClose={onClose} />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </App>
    </MemoryRouter>,
  );
}
const flush = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the pay dialog', () => {
  it('refuses to create an order until account type, duration and payment method are all chosen', async () => {
    answer = () => ok({ order, qrPayload: 'http://x/pay/sandbox/order/o1' });
    renderDialog();
    fireEvent.click(screen.getByTestId('pay-qr-button'));
    expect((await screen.findByTestId('pay-error')).textContent).toBe('Account type, duration and payment method must be chosen');
    fireEvent.click(screen.getByText('Premium'));
    fireEvent.click(screen.getByText(/1 month/));
    fireEvent.click(screen.getByTestId('pay-web-button'));
    expect(screen.getByTestId('pay-error').textContent).toBe('Account type, duration and payment method must be chosen');
    expect(calls.filter((c) => c.url === '/order/v5/create')).toEqual([]);
    // the auto-renewing ML4 is not offered beside ML1 (same type and duration); the super membership is
    expect(screen.getAllByText(/1 month/)).toHaveLength(1);
    screen.getByText('Super membership');
  });

  it("shows the spec's 'Failed to create order' when the server refuses", async () => {
    answer = () => refuse('internal');
    renderDialog();
    fireEvent.click(screen.getByText('Premium'));
    fireEvent.click(screen.getByText(/1 year/));
    fireEvent.click(screen.getByText('WeChat Pay'));
    fireEvent.click(screen.getByTestId('pay-qr-button'));
    expect((await screen.findByTestId('pay-error')).textContent).toBe('Failed to create order');
    expect(calls.find((c) => c.url === '/order/v5/create')?.data).toEqual({ planCode: 'ML2', payWay: 3, mode: 'qr', clientType: 11 });
  });

  it('scan to pay: the QR code of the payload, a status poll every PAY_POLL_MS, success, closed exactly 3 s later on My Orders', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let paid = false;
    answer = (url) => {
      if (url === '/order/v5/create') return ok({ order, qrPayload: 'http://127.0.0.1/pay/sandbox/order/o1' });
      if (url === '/order/v5/status') return ok({ orderId: 'o1', status: paid ? 1 : 0, payStatus: paid ? 1 : 0 });
      throw new TypeError(`unexpected ${url}`);
    };
    const onClose = vi.fn();
    renderDialog(onClose);
    fireEvent.click(screen.getByText('Premium'));
    fireEvent.click(screen.getByText(/1 month/));
    fireEvent.click(screen.getByText('Alipay'));
    fireEvent.click(screen.getByTestId('pay-qr-button'));
    await flush();
    const qr = screen.getByTestId('pay-qr');
    expect(qr.dataset.payload).toBe('http://127.0.0.1/pay/sandbox/order/o1');
    expect(qr.querySelector('svg path')).not.toBeNull();
    screen.getByText('Scan with Alipay to pay $4.99');
    const polls = () => calls.filter((c) => c.url === '/order/v5/status').length;
    await flush(PAY_POLL_MS - 1);
    expect(polls()).toBe(0);
    await flush(1);
    expect(polls()).toBe(1);
    expect(screen.queryByTestId('pay-success')).toBeNull();
    paid = true;
    await flush(PAY_POLL_MS);
    expect(polls()).toBe(2);
    screen.getByText('Payment successful');
    await flush(PAY_SUCCESS_CLOSE_MS - 1);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByTestId('where')).toBeNull();
    await flush(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('where').textContent).toBe('/yun/order');
    // no more polling once paid
    await flush(PAY_POLL_MS * 3);
    expect(polls()).toBe(2);
  });
});

describe('orders and codes', () => {
  it("names every order status of spec section 4 (0–7)", () => {
    const names = [0, 1, 2, 3, 4, 5, 6, 7].map((s) => {
      const { container, unmount } = render(<OrderStatusTag status={s} />);
      const text = container.textContent;
      unmount();
      return text;
    });
    expect(names).toEqual(['Unpaid', 'Paid', 'Cancelled', 'Service expired', 'Payment failed', 'Refunded', 'Confirming payment', 'Timed out']);
    setLanguage('zh');
    const { container } = render(<OrderStatusTag status={7} />);
    expect(container.textContent).toBe('已超时');
    setLanguage('en');
  });

  it("cancels an unpaid order; a refusal shows the server's message ('Cannot cancel the order of {0}')", async () => {
    answer = (url) => {
      if (url === '/order/v5/list') return ok({ total: 1, orders: [order] });
      if (url === '/order/v5/cancel') return refuse('Cannot cancel the order of paid successfully');
      throw new TypeError(`unexpected ${url}`);
    };
    render(<MemoryRouter><App><OrdersPage /></App></MemoryRouter>);
    expect((await screen.findByTestId('order-status')).textContent).toBe('Unpaid');
    screen.getByText('$4.99');
    fireEvent.click(screen.getByTestId('order-cancel'));
    fireEvent.click(await screen.findByText('OK'));
    await screen.findByText('Cannot cancel the order of paid successfully');
    expect(calls.find((c) => c.url === '/order/v5/cancel')?.data).toEqual({ orderId: 'o1' });
  });

  it('the exchange code must not be empty; a code is sent trimmed and the records show its state', async () => {
    answer = (url) => {
      if (url === '/order/v5/exchange/list') return ok({ total: 1, list: [{ code: '****-****-****-K7QP', planCode: 'ML1', periods: 1, status: 1, redeemedAt: 5 }] });
      if (url === '/order/v5/exchange') return ok({ planCode: 'ML1', startsAt: 0, endsAt: Date.UTC(2027, 0, 1) });
      throw new TypeError(`unexpected ${url}`);
    };
    render(<MemoryRouter><App><CouponPage /></App></MemoryRouter>);
    expect((await screen.findAllByTestId('code-status'))[0].textContent).toBe('Exchanged');
    fireEvent.change(screen.getByTestId('coupon-input'), { target: { value: ' - ' } });
    fireEvent.click(screen.getByTestId('coupon-redeem'));
    expect(screen.getByTestId('coupon-error').textContent).toBe('The exchange code cannot be empty');
    expect(calls.filter((c) => c.url === '/order/v5/exchange')).toEqual([]);
    fireEvent.change(screen.getByTestId('coupon-input'), { target: { value: ' ABCD-EFGH ' } });
    fireEvent.click(screen.getByTestId('coupon-redeem'));
    await vi.waitFor(() => expect(calls.find((c) => c.url === '/order/v5/exchange')?.data).toEqual({ code: 'ABCD-EFGH' }));
  });

  it('free unfreeze: the e-mail is required and must be valid', async () => {
    answer = () => ok({ sent: true });
    render(<MemoryRouter><App><FreeUnfreezeDialog onClose={() => undefined} /></App></MemoryRouter>);
    fireEvent.change(screen.getByTestId('free-unfreeze-email'), { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByText('Free unfreeze', { selector: 'button span' }));
    await screen.findByText('E-mail format is incorrect');
    fireEvent.change(screen.getByTestId('free-unfreeze-email'), { target: { value: '' } });
    await screen.findByText('Please enter your e-mail');
    expect(calls.filter((c) => c.url === '/user/v5/sysuser/freeUnfreeze')).toEqual([]);
  });
});

describe('the upgrade page', () => {
  it('offers the trial while the server says it is available, starts it, and opens the pay dialog on the card\'s plan', async () => {
    let trial = true;
    answer = (url) => {
      if (url === '/user/v5/sysuser/userInfo') return ok({ id: 'u1', name: 'U', email: 'u@example.com', storage: { used: 0, total: GB }, freeze: 0, vipType: trial ? 0 : 1, vipInfo: { goodsCodes: trial ? [] : ['TRIAL'], serverEndTimeStamp: 0 }, expiryWarning: false, trialAvailable: trial, rights: {} });
      if (url === '/cloud/v5/folder/capacity') return ok({ used: 0, total: GB, freeze: 0 });
      if (url === '/order/v5/plan/list') return ok({ plans: PLANS });
      if (url === '/order/v5/trial/start') {
        trial = false;
        return ok({ code: 'TRIAL', startsAt: 0, endsAt: Date.UTC(2027, 0, 1) });
      }
      throw new TypeError(`unexpected ${url}`);
    };
    render(<MemoryRouter><App><UserProvider><UpgradePage /></UserProvider></App></MemoryRouter>);
    expect((await screen.findByTestId('trial')).textContent).toContain('Free 30-day premium trial on registration (ad removal and storage excluded)');
    // one card per kind and period: the auto-renewing ML4 is sold as ML1
    expect(screen.queryByTestId('plan-ML4')).toBeNull();
    fireEvent.click(screen.getByTestId('trial-start'));
    await vi.waitFor(() => expect(screen.queryByTestId('trial')).toBeNull());
    expect(calls.filter((c) => c.url === '/order/v5/trial/start')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('buy-ML2'));
    const dialog = await screen.findByTestId('pay-dialog');
    expect(dialog.querySelector('.ant-radio-button-wrapper-checked')?.textContent).toBe('Premium');
    expect(screen.getByTestId('pay-amount').textContent).toBe('Amount: $47.99');
  });
});

describe('prices and addresses', () => {
  it("writes the spec's prices and savings: en $4.99/month (save $6), $47.99/year (save $90); zh ¥15 and ¥158 (save ¥22)", () => {
    expect(formatMoney(4.99, 'USD')).toBe('$4.99');
    expect(formatMoney(1730, 'KRW')).toBe('₩1,730');
    expect(formatMoney(15, 'CNY')).toBe('¥15');
    expect(savingOf(PLANS[0], PLANS)).toBe('$6');
    expect(savingOf(PLANS[1], PLANS)).toBe('$90');
    const zh = [plan('ML1', 'premium', 30, 15, 'CNY'), plan('ML2', 'premium', 365, 158, 'CNY')];
    expect(savingOf(zh[1], zh)).toBe('¥22');
    expect(savingOf(zh[0], zh)).toBeNull();
  });

  it('a payment page opened in the other layout keeps its place', () => {
    expect(payPathIn('/webH5', '/yun/order?paid=o1')).toBe('/webH5/order?paid=o1');
    expect(payPathIn('/yun', '/webH5/products')).toBe('/secure/products');
    expect(payPathIn('/webH5', '/upgrade')).toBe('/webH5/upgrade');
    expect(payPathIn('/webH5', '/yun/index')).toBeNull();
  });
});
