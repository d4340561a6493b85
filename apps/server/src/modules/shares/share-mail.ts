import { normalizeLanguage, type Language } from '@cadcloud/i18n';

/** The e-mail a share sends (share/email), in the sharer's language (zh default, en, ko, de). */
const TEXT: Record<Language, { subject: string; intro: string; link: string; code: string; password: string; expires: string; never: string; files: string }> = {
  zh: { subject: '{0} 与您分享了文件', intro: '{0} 通过 CADCloud 与您分享了文件。', link: '链接', code: '提取码', password: '提取密码', expires: '有效期至', never: '永久有效', files: '文件' },
  en: { subject: '{0} shared files with you', intro: '{0} shared files with you on CADCloud.', link: 'Link', code: 'Extraction code', password: 'Extraction password', expires: 'Valid until', never: 'Never expires', files: 'Files' },
  ko: { subject: '{0}님이 파일을 공유했습니다', intro: '{0}님이 CADCloud에서 파일을 공유했습니다.', link: '링크', code: '추출 코드', password: '추출 비밀번호', expires: '유효 기간', never: '만료 없음', files: '파일' },
  de: { subject: '{0} hat Dateien mit Ihnen geteilt', intro: '{0} hat auf CADCloud Dateien mit Ihnen geteilt.', link: 'Link', code: 'Extraktionscode', password: 'Extraktionspasswort', expires: 'Gültig bis', never: 'Läuft nie ab', files: 'Dateien' },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function shareMail(language: string | undefined, o: { sender: string; url: string; code: string; password: string; names: string[]; expiresAt: number | null }) {
  const lang = normalizeLanguage(language);
  const t = TEXT[lang];
  const sender = o.sender || 'CADCloud';
  const until = o.expiresAt === null ? t.never : new Date(o.expiresAt).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const lines: [string, string][] = [
    [t.files, o.names.join(', ')],
    [t.link, o.url],
    [t.code, o.code],
    ...(o.password ? ([[t.password, o.password]] as [string, string][]) : []),
    [t.expires, until],
  ];
  const text = [t.intro.replace('{0}', sender), '', ...lines.map(([k, v]) => `${k}: ${v}`)].join('\n');
  const html = `<p>${escapeHtml(t.intro.replace('{0}', sender))}</p><ul>${lines
    .map(([k, v]) => `<li>${escapeHtml(k)}: ${k === t.link ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v)}</li>`)
    .join('')}</ul>`;
  return { subject: t.subject.replace('{0}', sender), text, html };
}
