import { useCallback, useEffect, useState } from 'react';
import { Alert, App, Breadcrumb, Button, Checkbox, Empty, Form, Input, Progress, Result, Space, Spin } from 'antd';
import { CloudDownloadOutlined, DownloadOutlined, LockOutlined, SafetyOutlined, SaveOutlined, UserOutlined } from '@ant-design/icons';
import { SHARE_CODE_LENGTH } from '@cadcloud/contracts/share-extraction';
import { view3dHref } from '@cadcloud/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { extractShare, goneReason, retryAfter, shareSession, sharesApi, signInAndReturn, whoAmI, type ShareFiles, type SharePublicInfo, type ShareSession } from '../../features/shares/api.ts';
import { FolderPickDialog } from '../../features/shares/FolderPickDialog.tsx';
import { ItemIcon } from '../../features/files/icons.tsx';
import { saveUrl, type Item } from '../../features/files/api.ts';
import { isViewable } from '../../features/viewer/viewable.ts';
import { is3d } from '../../features/model3d/Model3dAction.tsx';
import { formatSize, formatTime } from '../../lib/format.ts';
import { isPhone } from '../../lib/device.ts';
import { LanguageSwitcher } from '../yun/Shell.tsx';
import '../../features/shares/shares.css';

export type ShareVariant = 'desktop' | 'phone' | 'simple';

type Phase =
  | { kind: 'loading' }
  | { kind: 'gone'; reason: string | null; msg: string }
  | { kind: 'error'; msg: string }
  | { kind: 'extract'; info: SharePublicInfo }
  | { kind: 'files'; session: ShareSession };

/** Header of every share page: brand, language, the signed-in user's name or a sign-in button. */
export function ShareHeader({ user }: { user: { name: string } | null | undefined }) {
  const { t } = useTranslation('shares');
  const navigate = useNavigate();
  return (
    <div className="sp-head">
      <div className="brand" onClick={() => navigate('/')}>{t('app.name', { ns: 'web' })}</div>
      <LanguageSwitcher />
      {user === undefined ? null : user ? (
        <span className="muted" data-testid="share-user"><UserOutlined /> {user.name}</span>
      ) : (
        <Button type="link" onClick={() => signInAndReturn()} data-testid="share-sign-in">{t('shares.page.signIn')}</Button>
      )}
    </div>
  );
}

/** 'This share no longer exists' with the reason (cancelled, expired, deleted). */
export function ShareGone({ reason, msg }: { reason: string | null; msg?: string }) {
  const { t } = useTranslation('shares');
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={<span data-testid="share-gone">{t('shares.page.gone')}</span>}
      subTitle={reason && reason !== 'unknown' ? <span data-testid="share-gone-reason">{t(`shares.gone.${reason}`)}</span> : msg && msg !== t('shares.page.gone') ? msg : undefined}
      extra={<Button onClick={() => navigate('/')}>{t('shares.page.home')}</Button>}
    />
  );
}

/** Seconds left until `until` (epoch ms), ticking once a second; 0 when it has passed or there is none. */
function useCountdown(until: number | null): number {
  const left = () => (until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000)));
  const [s, setS] = useState(left);
  useEffect(() => {
    setS(left());
    if (until === null) return;
    const timer = setInterval(() => {
      const l = left();
      setS(l);
      if (l === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return s;
}

/**
 * Code (and password) form. Extraction may first need a proof of work, solved in web workers while a progress bar
 * shows (the share has had wrong codes lately); the server's refusals (wrong code, 'try again in N s', gone) show
 * above the button, which counts down while the server asks this client to wait.
 */
function ExtractForm({ info, onAccess, onGone }: { info: SharePublicInfo; onAccess(s: ShareSession): void; onGone(reason: string | null, msg: string): void }) {
  const { t, i18n } = useTranslation('shares');
  const [params] = useSearchParams();
  const [form] = Form.useForm<{ code: string; password: string }>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [proving, setProving] = useState<{ tried: number; expected: number } | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const wait = useCountdown(waitUntil);
  const digits = info.codeKind !== 'alnum8';
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    setError(null);
    try {
      const r = await extractShare(info.rand, v.code.trim(), (v.password ?? '').trim(), (p) => setProving({ tried: p.tried, expected: p.expected }));
      const session: ShareSession = { shareToken: r.shareToken, rights: r.rights, share: r.share };
      shareSession.set(info.rand, session);
      onAccess(session);
    } catch (e) {
      const reason = goneReason(e);
      if (reason) onGone(reason, (e as Error).message);
      else {
        setError((e as Error).message);
        const s = retryAfter(e);
        setWaitUntil(s === null ? null : Date.now() + s * 1000);
      }
    } finally {
      setBusy(false);
      setProving(null);
    }
  };
  return (
    <div className="sp-card sp-extract" data-testid="share-extract">
      <h2><LockOutlined /> {t('shares.page.from', { name: info.ownerName, count: info.itemCount })}</h2>
      <div className="sp-meta">
        {formatTime(info.shareTime, i18n.language)} · {info.expiresAt ? t('shares.page.expires', { time: formatTime(info.expiresAt, i18n.language) }) : t('shares.page.never')}
      </div>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ code: params.get('code') ?? '', password: params.get('pwd') ?? '' }}>
        <Form.Item name="code" label={t('shares.page.code')} rules={[{ required: true, whitespace: true, message: t('shares.page.codeRequired') }]}>
          <Input
            size="large"
            maxLength={SHARE_CODE_LENGTH[info.codeKind] + 2}
            inputMode={digits ? 'numeric' : 'text'}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            placeholder={t(`shares.page.codePlaceholder.${info.codeKind}`)}
            data-testid="share-code-input"
            autoFocus
          />
        </Form.Item>
        {info.needsPassword && (
          <Form.Item name="password" label={t('shares.page.password')} rules={[{ required: true, whitespace: true, message: t('shares.page.passwordPlaceholder') }]}>
            <Input.Password size="large" maxLength={4} autoComplete="off" placeholder={t('shares.page.passwordPlaceholder')} data-testid="share-password-input" />
          </Form.Item>
        )}
        {proving && (
          <div className="sp-proving" data-testid="share-proving">
            <div><SafetyOutlined /> {t('shares.page.proving')}</div>
            {/* how likely a proof would have been found by now: the search has no fixed length */}
            <Progress percent={Math.min(95, Math.round((1 - Math.exp(-proving.tried / proving.expected)) * 100))} showInfo={false} size="small" status="active" />
            {proving.expected > 2 ** 22 && <small className="muted">{t('shares.page.provingSlow')}</small>}
          </div>
        )}
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="share-extract-error" />}
        <Button type="primary" size="large" block htmlType="submit" loading={busy} disabled={wait > 0} data-testid="share-extract-submit">
          {wait > 0 ? t('shares.page.retryIn', { s: wait }) : t('shares.page.extract')}
        </Button>
      </Form>
    </div>
  );
}

/** The shared items with folder navigation; open a drawing, download (with the right), save to my cloud (with the right). */
function ShareFilesView({ base, session, user, onLost }: { base: string; session: ShareSession; user: { name: string } | null | undefined; onLost(e: unknown): void }) {
  const { t, i18n } = useTranslation('shares');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const folderId = params.get('folder') ?? undefined;
  const [data, setData] = useState<ShareFiles | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [saving, setSaving] = useState<{ fileIds: string[]; folderIds: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const { rights, share, shareToken } = session;

  const load = useCallback(async () => {
    try {
      const r = await sharesApi.files(shareToken, folderId);
      setData(r);
      setSelected([]);
    } catch (e) {
      onLost(e);
    }
  }, [shareToken, folderId]);
  useEffect(() => {
    void load();
  }, [load]);

  // back from the login site with items chosen before: ask where to save them
  useEffect(() => {
    if (params.get('save') !== '1' || !user) return;
    const pending = shareSession.pendingSave(share.rand);
    const next = new URLSearchParams(params);
    next.delete('save');
    setParams(next, { replace: true });
    if (pending) setSaving(pending);
  }, [user]);

  const goFolder = (id?: string) => {
    const next = new URLSearchParams(params);
    if (id) next.set('folder', id);
    else next.delete('folder');
    setParams(next);
  };
  const open = (item: Item) => {
    if (item.fileType === 0) goFolder(item.id);
    else if (isViewable(item)) navigate(`${base}/view/${encodeURIComponent(item.id)}`);
    // a 3D model opens in the 3D viewer's own tab (spec section 2), seen through the share
    else if (is3d(item)) window.open(view3dHref(item.id, shareToken), '_blank');
  };
  const download = async (item: Item) => {
    try {
      const r = await sharesApi.download(shareToken, item.id);
      saveUrl(r.signedUrl || r.downloadUrl, r.name || item.name);
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const startSave = async () => {
    const list = data?.list ?? [];
    const chosen = selected.length ? list.filter((i) => selected.includes(i.id)) : list;
    const ids = { fileIds: chosen.filter((i) => i.fileType !== 0).map((i) => i.id), folderIds: chosen.filter((i) => i.fileType === 0).map((i) => i.id) };
    const me = user ?? (await whoAmI());
    if (!me) {
      // a visitor signs in (or registers) and comes back here; the token stays in this tab
      shareSession.pendingSave(share.rand, ids);
      const back = new URLSearchParams(params);
      back.set('save', '1');
      signInAndReturn(`${window.location.pathname}?${back}`);
      return;
    }
    setSaving(ids);
  };
  const save = async (target: string) => {
    if (!saving) return;
    setBusy(true);
    try {
      await sharesApi.copy(shareToken, saving.fileIds, saving.folderIds, target);
      shareSession.pendingSave(share.rand, null);
      setSaving(null);
      const drive = isPhone() ? '/webH5/cloud' : `/yun/index${target !== '0' ? `?folderId=${encodeURIComponent(target)}` : ''}`;
      message.success({ content: <span data-testid="share-saved">{t('shares.page.saved')} <a onClick={() => navigate(drive)}>{t('shares.page.openDrive')}</a></span>, duration: 6 });
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const list = data?.list ?? [];
  return (
    <div className="sp-card sp-files" data-testid="share-files">
      <h2>{t('shares.page.from', { name: share.ownerName, count: share.itemCount })}</h2>
      <div className="sp-meta">
        {formatTime(share.shareTime, i18n.language)} · {share.expiresAt ? t('shares.page.expires', { time: formatTime(share.expiresAt, i18n.language) }) : t('shares.page.never')}
      </div>
      <div className="sp-toolbar">
        <Breadcrumb
          items={[
            { title: folderId ? <a onClick={() => goFolder()}>{t('shares.page.root')}</a> : t('shares.page.root') },
            ...(data?.path ?? []).map((p, n, all) => ({ title: n === all.length - 1 ? p.name : <a onClick={() => goFolder(p.id)}>{p.name}</a> })),
          ]}
          data-testid="share-crumbs"
        />
        {rights.canSave && (
          <Space wrap>
            {selected.length > 0 && <span className="muted">{t('shares.page.selected', { count: selected.length })}</span>}
            <Button type="primary" icon={<SaveOutlined />} onClick={() => void startSave()} disabled={!list.length} title={selected.length ? undefined : t('shares.page.saveHint')} data-testid="share-save">
              {t('shares.page.save')}
            </Button>
          </Space>
        )}
      </div>
      {!data ? (
        <Spin />
      ) : list.length ? (
        <div>
          {list.map((item) => (
            <div key={item.id} className="sp-row" data-testid={`share-item-${item.name}`}>
              {rights.canSave && <Checkbox checked={selected.includes(item.id)} onChange={(e) => setSelected((s) => (e.target.checked ? [...s, item.id] : s.filter((x) => x !== item.id)))} aria-label={item.name} />}
              <div className="sp-row-name">
                <ItemIcon type={item.type} />
                {item.fileType === 0 || isViewable(item) || is3d(item) ? <a onClick={() => open(item)} title={item.name} data-testid={`share-open-${item.name}`}>{item.name}</a> : <span title={item.name}>{item.name}</span>}
              </div>
              <span className="sp-row-size">{item.fileType === 0 ? '' : formatSize(item.size)}</span>
              {rights.canDownload && item.fileType !== 0 && (
                <Button size="small" icon={<DownloadOutlined />} onClick={() => void download(item)} data-testid={`share-download-${item.name}`} aria-label={t('shares.page.download')}>
                  <span className="hide-narrow">{t('shares.page.download')}</span>
                </Button>
              )}
            </div>
          ))}
        </div>
      ) : (
        <Empty description={t('shares.page.empty')} />
      )}
      {rights.canSave && user === null && <p className="muted" style={{ marginTop: 12, fontSize: 13 }}><CloudDownloadOutlined /> {t('shares.page.signInToSave')}</p>}
      <FolderPickDialog open={!!saving} busy={busy} onCancel={() => setSaving(null)} onPick={(target) => void save(target)} />
    </div>
  );
}

/**
 * A share page: /share/{rand} (desktop), /webH5/share/{shareId}/{rand} (phone), /webH5/simple/{rand} and
 * /easyShare/{rand} (temporary shares, compact). Visitors may open it: no sign-in needed until they save.
 * getInfoByRand (gone → reason) → code and password → files; the share token stays in this tab per rand.
 */
export function SharePage({ rand, base, variant }: { rand: string; base: string; variant: ShareVariant }) {
  const { t } = useTranslation('shares');
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [user, setUser] = useState<{ name: string } | null | undefined>(undefined);
  const easy = variant === 'simple';

  const start = useCallback(async () => {
    setPhase({ kind: 'loading' });
    try {
      const info = await sharesApi.info(rand, easy);
      document.title = t('shares.page.from', { name: info.ownerName, count: info.itemCount });
      const session = shareSession.get(rand);
      setPhase(session ? { kind: 'files', session } : { kind: 'extract', info });
    } catch (e) {
      const reason = goneReason(e);
      shareSession.drop(rand);
      setPhase(reason ? { kind: 'gone', reason, msg: (e as Error).message } : { kind: 'error', msg: (e as Error).message });
    }
  }, [rand, easy]);
  useEffect(() => {
    void start();
  }, [start]);
  useEffect(() => {
    void whoAmI().then(setUser);
  }, []);

  // the token stopped working (share cancelled, expired, token run out): forget it and ask the server again
  const lost = (e: unknown) => {
    shareSession.drop(rand);
    const reason = goneReason(e);
    if (reason) setPhase({ kind: 'gone', reason, msg: (e as Error).message });
    else void start();
  };

  return (
    <div className={`sp ${variant !== 'desktop' ? 'sp-compact' : ''}`} data-testid="share-page">
      <ShareHeader user={user} />
      <div className="sp-body">
        {phase.kind === 'loading' && <Spin size="large" style={{ display: 'block', margin: '60px auto' }} />}
        {phase.kind === 'gone' && <div className="sp-card"><ShareGone reason={phase.reason} msg={phase.msg} /></div>}
        {phase.kind === 'error' && <div className="sp-card"><Result status="error" title={<span data-testid="share-error">{phase.msg}</span>} /></div>}
        {phase.kind === 'extract' && <ExtractForm info={phase.info} onAccess={(session) => setPhase({ kind: 'files', session })} onGone={(reason, msg) => setPhase({ kind: 'gone', reason, msg })} />}
        {phase.kind === 'files' && <ShareFilesView base={base} session={phase.session} user={user} onLost={lost} />}
      </div>
    </div>
  );
}
