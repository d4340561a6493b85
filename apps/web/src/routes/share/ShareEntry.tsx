import { useEffect, useState } from 'react';
import { Alert, Button, Input } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { goneReason, sharesApi, whoAmI } from '../../features/shares/api.ts';
import { parseShareInput } from '../../features/shares/validation.ts';
import { ShareGone, ShareHeader } from './SharePage.tsx';
import '../../features/shares/shares.css';

/**
 * /webH5/share and /webH5/simple: the phone entry. Paste a share link (with the copied code and password, if any)
 * or a bare share code; the share's own page opens with the code filled in.
 */
export function ShareEntry() {
  const { t } = useTranslation('shares');
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [gone, setGone] = useState<{ reason: string | null; msg: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [user, setUser] = useState<{ name: string } | null | undefined>(undefined);
  useEffect(() => {
    void whoAmI().then(setUser);
  }, []);
  const go = async () => {
    setError(null);
    setGone(null);
    const p = parseShareInput(text);
    if (!p) return setError(t('shares.entry.invalid'));
    setBusy(true);
    try {
      const info = await sharesApi.info(p.rand, p.easy);
      const q = new URLSearchParams();
      if (p.code) q.set('code', p.code);
      if (p.password) q.set('pwd', p.password);
      const path = p.easy || info.kind === 'easy' ? `/webH5/simple/${info.rand}` : `/webH5/share/${info.shareId}/${info.rand}`;
      navigate(`${path}${q.size ? `?${q}` : ''}`);
    } catch (e) {
      const reason = goneReason(e);
      if (reason) setGone({ reason, msg: (e as Error).message });
      else setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="sp sp-compact" data-testid="share-entry">
      <ShareHeader user={user} />
      <div className="sp-body">
        {gone ? (
          <div className="sp-card"><ShareGone reason={gone.reason} msg={gone.msg} /></div>
        ) : (
          <div className="sp-card sp-extract">
            <h2><LinkOutlined /> {t('shares.entry.title')}</h2>
            <Input.TextArea rows={3} value={text} onChange={(e) => setText(e.target.value)} placeholder={t('shares.entry.placeholder')} data-testid="share-entry-input" style={{ margin: '12px 0' }} />
            {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="share-entry-error" />}
            <Button type="primary" size="large" block loading={busy} onClick={() => void go()} data-testid="share-entry-go">{t('shares.entry.go')}</Button>
          </div>
        )}
      </div>
    </div>
  );
}
