import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { Right } from '@cadcloud/contracts';
import { useUser } from '../auth/user.tsx';
import { payBase } from './plans.ts';

/**
 * A gate in the UI over a right the server grants (`user.rights`): `allowed(right)` is false only for a signed-in
 * user the server denies it (a visitor on a share page has no user state: the sharer's page is not gated here).
 * `prompt()` shows the upgrade prompt in place of the tool.
 */
export function useRightGate(right: Right) {
  const { user } = useUser();
  const { t } = useTranslation('pay');
  const navigate = useNavigate();
  const base = payBase(useLocation().pathname);
  const allowed = !user || user.rights[right] !== false;
  const prompt = () =>
    Modal.confirm({
      title: t('upsell.title'),
      content: <span data-testid="upsell">{t(`upsell.${right}`, { defaultValue: t(`right.${right}`) })}</span>,
      okText: t('upsell.go'),
      cancelText: t('upsell.later'),
      onOk: () => navigate(base.upgrade),
    });
  return { allowed, prompt };
}
