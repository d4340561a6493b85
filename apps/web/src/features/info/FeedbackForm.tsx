import { useState } from 'react';
import { Alert, Button, Form, Input, Result } from 'antd';
import { PictureOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EMAIL, FEEDBACK_CONTENT_MAX, FEEDBACK_SCREENSHOT_MAX_BYTES, FEEDBACK_SCREENSHOT_TYPES, feedbackProblem } from '@cadcloud/contracts';
import { format } from '@cadcloud/i18n';
import { ApiError } from '../../lib/api.ts';
import { sendFeedback } from './api.ts';

/** The page the sender came from: `?from=` (links inside the app pass it), else the referrer when it is this site. */
export function feedbackSourcePage(): string | undefined {
  const from = new URLSearchParams(window.location.search).get('from');
  if (from && from.startsWith('/') && !from.startsWith('//')) return from;
  try {
    const r = document.referrer ? new URL(document.referrer) : null;
    if (r && r.origin === window.location.origin) return r.pathname + r.search;
  } catch {
    // no usable referrer
  }
  return undefined;
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

/**
 * The feedback form of /feedback and /webH5/info/feedback (spec section 5: e-mail required and valid, content
 * required), with an optional screenshot and the page the sender came from; a success state after sending.
 */
export function FeedbackForm({ defaultEmail }: { defaultEmail?: string }) {
  const { t } = useTranslation('info');
  const [email, setEmail] = useState(defaultEmail ?? '');
  const [content, setContent] = useState('');
  const [shot, setShot] = useState<{ name: string; dataUrl: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [page] = useState(feedbackSourcePage);

  const message = (key: string) => format(t(`errors:${key}`), key === 'feedback.contentTooLong' ? [FEEDBACK_CONTENT_MAX] : []);
  const fieldProblem = (field: 'email' | 'content') => (problem && problem.startsWith(`feedback.${field}`) ? message(problem) : undefined);

  async function pickScreenshot(file: File | undefined) {
    if (!file) return;
    if (!(FEEDBACK_SCREENSHOT_TYPES as readonly string[]).includes(file.type) || file.size > FEEDBACK_SCREENSHOT_MAX_BYTES) {
      setProblem('feedback.screenshotInvalid');
      return;
    }
    setProblem(null);
    setShot({ name: file.name, dataUrl: await readDataUrl(file) });
  }

  async function submit() {
    const p = feedbackProblem({ email, content }, EMAIL);
    setProblem(p);
    setServerError(null);
    if (p) return;
    setSending(true);
    try {
      await sendFeedback({ email: email.trim(), content: content.trim(), pageUrl: page, screenshot: shot?.dataUrl });
      setSent(true);
    } catch (e) {
      // the server's own checks answer with the same codes; anything else (a budget, the network) with its message
      if (e instanceof ApiError && e.code?.startsWith('feedback.') && e.code !== 'feedback.tooMany') setProblem(e.code);
      else setServerError(e instanceof Error ? e.message : String(e));
    } finally {
      setSending(false);
    }
  }

  if (sent) {
    return (
      <Result status="success" title={t('feedback.sent')} subTitle={t('feedback.sentText')} data-testid="feedback-sent"
        extra={<Button onClick={() => { setSent(false); setContent(''); setShot(null); }}>{t('feedback.again')}</Button>} />
    );
  }
  const other = problem && !problem.startsWith('feedback.email') && !problem.startsWith('feedback.content') ? message(problem) : serverError;
  return (
    <Form layout="vertical" className="feedback-form" onFinish={() => void submit()} data-testid="feedback-form">
      <p>{t('feedback.intro')}</p>
      <Form.Item label={t('feedback.email')} required validateStatus={fieldProblem('email') ? 'error' : undefined} help={fieldProblem('email')}>
        <Input inputMode="email" autoComplete="email" value={email} maxLength={320} placeholder={t('feedback.emailPlaceholder')} onChange={(e) => setEmail(e.target.value)} data-testid="feedback-email" />
      </Form.Item>
      <Form.Item label={t('feedback.content')} required validateStatus={fieldProblem('content') ? 'error' : undefined} help={fieldProblem('content')}>
        <Input.TextArea value={content} rows={6} showCount maxLength={FEEDBACK_CONTENT_MAX} placeholder={t('feedback.contentPlaceholder')} onChange={(e) => setContent(e.target.value)} data-testid="feedback-content" />
      </Form.Item>
      <Form.Item label={t('feedback.screenshot')} extra={t('feedback.screenshotHint')}>
        {shot ? (
          <div className="feedback-shot">
            <img src={shot.dataUrl} alt={shot.name} />
            <Button icon={<DeleteOutlined />} onClick={() => setShot(null)}>{t('feedback.screenshotRemove')}</Button>
          </div>
        ) : (
          <label className="ant-btn ant-btn-default feedback-shot-pick">
            <PictureOutlined /> {t('feedback.screenshotAdd')}
            <input type="file" accept={FEEDBACK_SCREENSHOT_TYPES.join(',')} hidden data-testid="feedback-screenshot" onChange={(e) => void pickScreenshot(e.target.files?.[0])} />
          </label>
        )}
      </Form.Item>
      {page && <Form.Item label={t('feedback.page')}><code data-testid="feedback-page">{page}</code></Form.Item>}
      {other && <Alert type="error" showIcon message={other} data-testid="feedback-error" style={{ marginBottom: 16 }} />}
      <Button type="primary" htmlType="submit" loading={sending} block data-testid="feedback-submit">{t('feedback.submit')}</Button>
    </Form>
  );
}
