import type { Language } from '@cadcloud/i18n';
import { normalizeLanguage } from '@cadcloud/i18n';
import type { MailMessage } from '../../infra/mail/mail.types.ts';

/**
 * The operator's answer to a feedback message, in the language the sender wrote in. The subject is fixed; the body
 * quotes the first lines of what they sent, so they know which message is answered.
 */
const TEXT: Record<Language, { subject: string; intro: string; yours: string }> = {
  zh: { subject: 'CADCloud 对您的反馈的回复', intro: '您好，感谢您的反馈。我们的回复如下：', yours: '您的反馈：' },
  en: { subject: 'Reply to your CADCloud feedback', intro: 'Hello, thank you for your feedback. Our answer:', yours: 'Your feedback:' },
  ko: { subject: 'CADCloud 피드백에 대한 답변', intro: '안녕하세요. 피드백을 보내 주셔서 감사합니다. 답변은 다음과 같습니다:', yours: '보내신 피드백:' },
  de: { subject: 'Antwort auf Ihr CADCloud-Feedback', intro: 'Hallo, vielen Dank für Ihr Feedback. Unsere Antwort:', yours: 'Ihr Feedback:' },
};

const QUOTE_CHARS = 500;

export function feedbackReplyMail(o: { to: string; language: string; reply: string; content: string }): MailMessage {
  const t = TEXT[normalizeLanguage(o.language)];
  const quoted = (o.content.length > QUOTE_CHARS ? `${o.content.slice(0, QUOTE_CHARS)}…` : o.content).split('\n').map((l) => `> ${l}`).join('\n');
  return { to: o.to, subject: t.subject, text: `${t.intro}\n\n${o.reply}\n\n${t.yours}\n${quoted}\n` };
}
