import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Modal, Radio, Result, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import QRCode from 'qrcode';
import { ORDER_STATUS_NAMES, OrderStatus, PAY_POLL_MS, PAY_SUCCESS_CLOSE_MS, PAY_WAYS, type OrderStatusCode, type PayMode, type PlanInfo } from '@cadcloud/contracts';
import { useUser } from '../auth/user.tsx';
import { formatMoney, payApi, type CreatedOrder } from './api.ts';
import { durationLabel, payBase, sellable, typeKeyOf, type PayKind } from './plans.ts';

/** Statuses after which the order will not be paid any more: the dialog stops asking. */
const FINAL: readonly number[] = [OrderStatus.CANCELLED, OrderStatus.EXPIRED, OrderStatus.FAILED, OrderStatus.REFUNDED, OrderStatus.TIMED_OUT];

type Phase = { at: 'choose' } | { at: 'scan'; created: CreatedOrder; svg: string } | { at: 'paid' } | { at: 'failed'; status: number };

/**
 * The pay dialog (spec section 2: account and cloud-disk expansion): the account type or size, the duration and the
 * payment method must all be chosen (section 5); "scan to pay" shows the order's QR code and asks for its status every
 * PAY_POLL_MS, "web payment" goes to the provider's page (which comes back to My Orders). After success it closes
 * PAY_SUCCESS_CLOSE_MS later (section 9) and lands on My Orders.
 */
export function PayDialog({ kind, plans, planCode, onClose }: { kind: PayKind; plans: PlanInfo[]; planCode?: string; onClose(): void }) {
  const { t } = useTranslation('pay');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { refresh } = useUser();
  const offered = useMemo(() => sellable(plans, kind), [plans, kind]);
  const first = offered.find((p) => p.code === planCode);
  const [type, setType] = useState<string | undefined>(first && typeKeyOf(first));
  const [code, setCode] = useState<string | undefined>(first?.code);
  const [payWay, setPayWay] = useState<number | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [phase, setPhase] = useState<Phase>({ at: 'choose' });
  const types = [...new Set(offered.map(typeKeyOf))];
  const durations = offered.filter((p) => typeKeyOf(p) === type);
  const plan = offered.find((p) => p.code === code && typeKeyOf(p) === type);
  const orderId = phase.at === 'scan' ? phase.created.order.orderId : null;

  // scan to pay: ask for the order's status until it is paid or will not be any more
  useEffect(() => {
    if (!orderId) return;
    let stopped = false;
    const timer = setInterval(() => {
      payApi.status(orderId).then((s) => {
        if (stopped) return;
        if (s.status === OrderStatus.PAID) setPhase({ at: 'paid' });
        else if (FINAL.includes(s.status)) setPhase({ at: 'failed', status: s.status });
      }, () => undefined);
    }, PAY_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [orderId]);

  // paid: the user's storage and rights changed; close 3 s later on My Orders
  useEffect(() => {
    if (phase.at !== 'paid') return;
    void refresh().catch(() => undefined);
    const timer = setTimeout(() => {
      onClose();
      navigate(payBase(pathname).order);
    }, PAY_SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [phase.at]);

  async function pay(mode: PayMode) {
    if (!plan || !payWay) {
      setError(t('pay.required'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const created = await payApi.create(plan.code, payWay, mode);
      if (mode === 'redirect' && created.redirectUrl) {
        window.location.assign(created.redirectUrl);
        return;
      }
      if (!created.qrPayload) throw new Error('no QR payload');
      const svg = await QRCode.toString(created.qrPayload, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      setPhase({ at: 'scan', created, svg });
    } catch {
      setError(t('pay.createFailed'));
    } finally {
      setBusy(false);
    }
  }

  const typeLabel = (key: string) => (kind === 'storage' ? t(`plan.${key}`, { defaultValue: key }) : t(`kind.${key}`));
  const price = plan?.price ? formatMoney(plan.price.amount, plan.price.currency) : '';
  return (
    <Modal open title={t(kind === 'storage' ? 'pay.title.storage' : 'pay.title.account')} onCancel={onClose} footer={null} destroyOnHidden width={460} wrapClassName="pay-dialog">
      <div data-testid="pay-dialog">
      {phase.at === 'choose' && (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <div>
            <div className="pay-label">{t(kind === 'storage' ? 'pay.field.size' : 'pay.field.type')}</div>
            <Radio.Group value={type} onChange={(e) => { setType(e.target.value); setCode(undefined); }} data-testid="pay-type">
              {types.map((k) => <Radio.Button key={k} value={k} data-testid={`pay-type-${k}`}>{typeLabel(k)}</Radio.Button>)}
            </Radio.Group>
          </div>
          <div>
            <div className="pay-label">{t('pay.field.duration')}</div>
            <Radio.Group value={code} onChange={(e) => setCode(e.target.value)} data-testid="pay-duration">
              {durations.map((p) => {
                const [key, opts] = durationLabel(p.durationDays);
                return <Radio.Button key={p.code} value={p.code} data-testid={`pay-plan-${p.code}`}>{t(key, opts)} · {p.price && formatMoney(p.price.amount, p.price.currency)}</Radio.Button>;
              })}
            </Radio.Group>
          </div>
          <div>
            <div className="pay-label">{t('pay.field.method')}</div>
            <Radio.Group value={payWay} onChange={(e) => setPayWay(e.target.value)} data-testid="pay-way">
              {PAY_WAYS.map((w) => <Radio.Button key={w} value={w} data-testid={`pay-way-${w}`}>{t(`pay.way.${w}`)}</Radio.Button>)}
            </Radio.Group>
          </div>
          {price && <div data-testid="pay-amount">{t('pay.amount')}: <b>{price}</b></div>}
          {error && <Alert type="error" showIcon title={error} data-testid="pay-error" />}
          <Space wrap>
            <Button type="primary" loading={busy} onClick={() => void pay('qr')} data-testid="pay-qr-button">{t('pay.qr')}</Button>
            <Button loading={busy} onClick={() => void pay('redirect')} data-testid="pay-web-button">{t('pay.web')}</Button>
          </Space>
        </Space>
      )}
      {phase.at === 'scan' && (
        <div className="pay-scan">
          <div className="pay-qr" data-testid="pay-qr" data-payload={phase.created.qrPayload} dangerouslySetInnerHTML={{ __html: phase.svg }} />
          <p>{t('pay.scan', { way: t(`pay.way.${payWay}`), amount: formatMoney(phase.created.order.amount, phase.created.order.currency) })}</p>
          <div className="muted"><Spin size="small" /> {t('pay.waiting')}</div>
        </div>
      )}
      {phase.at === 'paid' && <Result status="success" title={t('pay.success')} subTitle={t('pay.closing')} data-testid="pay-success" />}
      {phase.at === 'failed' && <Result status="warning" title={t('pay.failed', { status: t(`status.${ORDER_STATUS_NAMES[phase.status as OrderStatusCode]}`) })} data-testid="pay-failed" />}
      </div>
    </Modal>
  );
}
