import { useEffect, useState, type ReactNode } from 'react';
import { Button, Card, Skeleton, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { InfoPageResult } from '@cadcloud/contracts';
import { FeedbackForm } from '../../features/info/FeedbackForm.tsx';
import { fetchInfoPage } from '../../features/info/api.ts';
import { renderMarkdown } from '../../features/info/markdown.tsx';
import { isPhone } from '../../lib/device.ts';

const LINKS = [
  ['/help', 'nav.help'],
  ['/feedback', 'nav.feedback'],
  ['/contactus', 'nav.contact'],
  ['/declaration', 'nav.declaration'],
] as const;

/**
 * The frame of the public information pages (/feedback, /contactus, /declaration, /help): open to visitors, one
 * column that fits a 390 px phone, links between the pages and back to the cloud.
 */
function InfoLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('info');
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${title} · CADCloud`;
  }, [title]);
  return (
    <div className="info-page" data-testid="info-page">
      <header className="info-header">
        <Link className="brand" to={isPhone() ? '/webH5' : '/yun/recent'}>{t('web:app.name')}</Link>
        <nav>
          {LINKS.map(([to, key]) => (
            <Link key={to} to={to} className={pathname === to ? 'active' : ''}>{t(key)}</Link>
          ))}
        </nav>
      </header>
      <main className="info-main">
        <Typography.Title level={2}>{title}</Typography.Title>
        {children}
      </main>
    </div>
  );
}

export function FeedbackPage() {
  const { t } = useTranslation('info');
  return (
    <InfoLayout title={t('feedback.title')}>
      <FeedbackForm />
    </InfoLayout>
  );
}

/** The operator's text of a page (null while loading or when none is configured). */
function useOperatorText(name: 'contact' | 'declaration'): InfoPageResult | 'loading' {
  const [r, setR] = useState<InfoPageResult | 'loading'>('loading');
  useEffect(() => {
    let live = true;
    // an unreachable server shows the built-in text rather than an error page
    fetchInfoPage(name).then((v) => live && setR(v), () => live && setR({ text: null, email: null }));
    return () => {
      live = false;
    };
  }, [name]);
  return r;
}

/** Operator text (Markdown) as elements (features/info/markdown.tsx): never interpreted as HTML. */
function OperatorText({ text, testId }: { text: string; testId: string }) {
  return <div className="info-text" data-testid={testId}>{renderMarkdown(text)}</div>;
}

export function ContactPage() {
  const { t } = useTranslation('info');
  const r = useOperatorText('contact');
  return (
    <InfoLayout title={t('contact.title')}>
      {r === 'loading' ? <Skeleton active /> : (
        <>
          <OperatorText text={r.text ?? t('contact.default')} testId="contact-text" />
          {r.email && <p data-testid="contact-email"><MailOutlined /> {t('contact.email')}<a href={`mailto:${r.email}`}>{r.email}</a></p>}
          <Link to="/feedback"><Button type="primary">{t('contact.toFeedback')}</Button></Link>
        </>
      )}
    </InfoLayout>
  );
}

export function DeclarationPage() {
  const { t } = useTranslation('info');
  const r = useOperatorText('declaration');
  return (
    <InfoLayout title={t('declaration.title')}>
      {r === 'loading' ? <Skeleton active /> : <OperatorText text={r.text ?? t('declaration.default')} testId="declaration-text" />}
    </InfoLayout>
  );
}

/** Quick-start steps, each with a screenshot of our own UI (scripts/help-screenshots.mjs makes them). */
export const HELP_STEPS = ['upload', 'open', 'share', 'convert'] as const;

export function HelpPage() {
  const { t } = useTranslation('info');
  return (
    <InfoLayout title={t('help.title')}>
      <p>{t('help.intro')}</p>
      {HELP_STEPS.map((step, i) => (
        <Card key={step} className="help-step" data-testid={`help-${step}`} title={`${i + 1}. ${t(`help.${step}.title`)}`}>
          <p>{t(`help.${step}.text`)}</p>
          <img src={`/help/${step}.png`} alt={t('help.screenshot', { name: t(`help.${step}.title`) })} loading="lazy" width={640} height={400} />
        </Card>
      ))}
    </InfoLayout>
  );
}
