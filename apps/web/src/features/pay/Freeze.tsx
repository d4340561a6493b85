import { useEffect, useState } from 'react';
import { formatTime } from '../../lib/format.ts';
import { Alert, App, Button, Card, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { useUser } from '../auth/user.tsx';
import { payApi } from './api.ts';
import { payBase } from './plans.ts';

/** Frozen (spec section 4: files over the storage): what the user state or capacity says. */
export function useFrozen(): boolean {
  const { user, capacity } = useUser();
  return (capacity?.freeze ?? user?.freeze) === 1;
}

/** A banner over the pages of a frozen account, linking to the explanation. */
export function FreezeBanner() {
  const { t } = useTranslation('pay');
  const base = payBase(useLocation().pathname);
  if (!useFrozen()) return null;
  return <Alert type="error" showIcon banner title={t('freeze.banner')} action={<Link to={base.freeze} data-testid="freeze-more">{t('freeze.more')}</Link>} data-testid="freeze-banner" style={{ marginBottom: 12 }} />;
}

/** The one-time free unfreeze (accounts registered before October 2017): an e-mail, required and valid; the server mails a link. */
export function FreeUnfreezeDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('pay');
  const { message } = App.useApp();
  const { user } = useUser();
  const [form] = Form.useForm<{ email: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit({ email }: { email: string }) {
    setBusy(true);
    setError(null);
    try {
      await payApi.freeUnfreeze(email.trim());
      message.success(t('freeze.free.sent'));
      onClose();
    } catch (e) {
      // the server's reason (not eligible, already used …) or the spec's 'Failed to unfreeze'
      setError(e instanceof ApiError && e.rtnCode !== '100' ? e.message : t('freeze.free.failed'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal open title={t('freeze.free.title')} onCancel={onClose} onOk={() => form.submit()} okText={t('freeze.free.button')} cancelText={t('common.cancel')} confirmLoading={busy}>
      <div data-testid="free-unfreeze">
      <p>{t('freeze.free.text')}</p>
      <Form form={form} layout="vertical" initialValues={{ email: user?.email ?? '' }} onFinish={(v) => void submit(v)}>
        <Form.Item name="email" label={t('freeze.free.email')} rules={[{ required: true, whitespace: true, message: t('freeze.free.emailRequired') }, { type: 'email', message: t('freeze.free.emailInvalid') }]}>
          <Input data-testid="free-unfreeze-email" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="free-unfreeze-error" />}
      </div>
    </Modal>
  );
}

/** /yun/freeze, /webH5/freeze: what is blocked, the 3-month purge, and the ways out (spec sections 2 and 4). */
export function FreezePage() {
  const { t, i18n } = useTranslation('pay');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [state, setState] = useState<Awaited<ReturnType<typeof payApi.freezeState>> | null>(null);
  useEffect(() => {
    void payApi.freezeState().then(setState, () => undefined);
  }, []);
  const base = payBase(pathname);
  const phone = pathname.startsWith('/webH5');
  const [free, setFree] = useState(false);
  return (
    <div className="pay-page" data-testid="freeze-page">
      <h2 className="page-title">{t('freeze.title')}</h2>
      <FreezeBanner />
      <Card>
        <p>{t('freeze.blocked')}</p>
        <p><b>{t('freeze.purge')}</b></p>
        {state?.purgeAt && <p data-testid="freeze-purge-at">{t('freeze.purgeAt', { date: formatTime(state.purgeAt, i18n.language) })}</p>}
        <p>{t('freeze.how')}</p>
        <ul className="freeze-ways">
          <li><Button type="link" onClick={() => navigate(base.upgrade)}>{t('freeze.renew')}</Button></li>
          <li><Button type="link" onClick={() => navigate(base.upgrade)}>{t('freeze.buySpace')}</Button></li>
          <li><Button type="link" onClick={() => navigate(phone ? '/webH5/cloud' : '/yun/index')}>{t('freeze.cleanUp')}</Button></li>
          <li><Button type="link" onClick={() => navigate(phone ? '/webH5/info/publicplatform' : '/yun/myPublic')}>{t('freeze.publish')}</Button></li>
        </ul>
        {/* the one-time free unfreeze: offered by the server to accounts registered before October 2017 that have not used it */}
        {state?.freeUnfreezeAvailable && (
          <>
            <h3>{t('freeze.free.title')}</h3>
            <p>{t('freeze.free.text')}</p>
            <Button onClick={() => setFree(true)} data-testid="free-unfreeze-open">{t('freeze.free.button')}</Button>
          </>
        )}
      </Card>
      {free && <FreeUnfreezeDialog onClose={() => setFree(false)} />}
    </div>
  );
}
