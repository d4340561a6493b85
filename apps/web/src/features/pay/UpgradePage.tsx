import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Tag } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { RIGHTS, type PlanInfo } from '@cadcloud/contracts';
import { formatTime } from '../../lib/format.ts';
import { formatSize } from '../../lib/format.ts';
import { useUser } from '../auth/user.tsx';
import { formatMoney, payApi } from './api.ts';
import { PayDialog } from './PayDialog.tsx';
import { perPeriodLabel, planKindOf, type PayKind } from './plans.ts';

/** Spec section 9's English text: $4.99 per month (save $6) and $47.99 per year (save $90). */
const SPEC_SAVINGS_USD: Record<string, string> = { ML1: '$6', ML2: '$90' };
/** The trial's length in the spec's texts: 7 days in Chinese, 30 in English (the server's catalog decides the real one). */
const trialDays = (lang: string) => (lang === 'zh' ? 7 : 30);

/** "save …": the spec's English amounts; elsewhere a yearly plan saves twelve of its monthly price less its own. */
export function savingOf(plan: PlanInfo, plans: PlanInfo[]): string | null {
  if (!plan.price) return null;
  if (plan.price.currency === 'USD' && SPEC_SAVINGS_USD[plan.code]) return SPEC_SAVINGS_USD[plan.code];
  if (plan.durationDays !== 365) return null;
  const monthly = plans.find((p) => p.kind === plan.kind && p.durationDays === 30 && p.price?.currency === plan.price!.currency);
  const saved = monthly?.price ? Math.round((monthly.price.amount * 12 - plan.price.amount) * 100) / 100 : 0;
  return saved > 0 ? formatMoney(saved, plan.price.currency) : null;
}

function PlanCard({ plan, plans, onBuy, current }: { plan: PlanInfo; plans: PlanInfo[]; onBuy(): void; current: boolean }) {
  const { t } = useTranslation('pay');
  const [per, perOpts] = perPeriodLabel(plan.durationDays);
  const save = savingOf(plan, plans);
  return (
    <Card className="plan-card" title={t(`plan.${plan.code}`, { defaultValue: plan.code })} extra={current && <Tag color="green">{t('upgrade.current')}</Tag>} data-testid={`plan-${plan.code}`}>
      <div className="plan-price">
        <b data-testid="plan-price">{plan.price && formatMoney(plan.price.amount, plan.price.currency)}</b>{t(per, perOpts)}
        {save && <span className="plan-save" data-testid="plan-save"> {t('upgrade.save', { amount: save })}</span>}
      </div>
      <ul className="plan-rights">
        {plan.storageBytes > 0 && <li><CheckOutlined /> {t(plan.kind === 'storage' ? 'upgrade.storagePlus' : 'upgrade.storage', { size: formatSize(plan.storageBytes) })}</li>}
        {RIGHTS.filter((r) => plan.rights.includes(r)).map((r) => <li key={r}><CheckOutlined /> {t(`right.${r}`)}</li>)}
      </ul>
      <Button type="primary" block onClick={onBuy} data-testid={`buy-${plan.code}`}>{t('upgrade.buy')}</Button>
    </Card>
  );
}

/** /upgrade, /webH5/upgrade: the plans in the language's currency, the registration trial, buy → the pay dialog. */
export function UpgradePage() {
  const { t, i18n } = useTranslation('pay');
  const { message } = App.useApp();
  const { user, refresh } = useUser();
  const [plans, setPlans] = useState<PlanInfo[] | null>(null);
  const [buying, setBuying] = useState<{ kind: PayKind; code: string } | null>(null);
  useEffect(() => {
    void payApi.plans().then((r) => setPlans(r.plans), (e: Error) => message.error(e.message));
  }, [i18n.language]);

  async function startTrial() {
    try {
      const r = await payApi.startTrial();
      message.success(t('upgrade.trial.ok', { date: formatTime(r.endsAt, i18n.language) }));
      await refresh();
    } catch (e) {
      message.error((e as Error).message);
    }
  }

  // the auto-renewing ML4 is sold as ML1 is (same kind and period): one card per kind and period
  const shown = (plans ?? []).filter((p) => p.price && planKindOf(p) && !(plans ?? []).some((q) => q !== p && q.code < p.code && q.kind === p.kind && q.durationDays === p.durationDays && q.storageBytes === p.storageBytes));
  const active = user?.vipInfo.goodsCodes ?? [];
  const card = (p: PlanInfo) => <PlanCard key={p.code} plan={p} plans={plans!} current={active.includes(p.code)} onBuy={() => setBuying({ kind: planKindOf(p)!, code: p.code })} />;
  return (
    <div className="pay-page" data-testid="upgrade-page">
      <h2 className="page-title">{t('upgrade.title')}</h2>
      {user?.trialAvailable && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="trial"
          title={t('upgrade.trial.text', { days: trialDays(i18n.language) })}
          action={<Button size="small" type="primary" onClick={() => void startTrial()} data-testid="trial-start">{t('upgrade.trial.button')}</Button>} />
      )}
      <div className="plan-grid">
        <Card className="plan-card" title={t('plan.free')} extra={user && user.vipType === 0 && <Tag color="green">{t('upgrade.current')}</Tag>} data-testid="plan-free">
          <div className="plan-price"><b>{formatMoney(0, plans?.[0]?.price?.currency ?? 'CNY')}</b></div>
          <p className="muted">{t('upgrade.freeDesc')}</p>
        </Card>
        {shown.filter((p) => p.kind !== 'storage').map(card)}
      </div>
      <h3 style={{ marginTop: 24 }}>{t('upgrade.storageTitle')}</h3>
      <div className="plan-grid">{shown.filter((p) => p.kind === 'storage').map(card)}</div>
      {buying && plans && <PayDialog kind={buying.kind} plans={plans} planCode={buying.code} onClose={() => setBuying(null)} />}
    </div>
  );
}
