import { normalizeLanguage, type Language } from '@cadcloud/i18n';

/**
 * The e-mail a share sends (share/email), in the sharer's language (zh default, en, ko, de). It is the product's
 * message, so nothing the user chose goes into its headers: the sender is MAIL_FROM and the subject is fixed. The body
 * says which user sent it — their name (quoted, without control or direction characters, shortened) and their
 * account e-mail — and that the name and file names are theirs, so a name such as "CADCloud security team" cannot
 * pass for the product.
 */
const TEXT: Record<Language, { subject: string; intro: string; sender: string; link: string; code: string; password: string; expires: string; never: string; files: string; more: string; notice: string }> = {
  zh: {
    subject: '有用户通过 CADCloud 与您分享了文件',
    intro: '一位 CADCloud 用户通过 CADCloud 与您分享了文件。',
    sender: '分享者',
    link: '链接',
    code: '提取码',
    password: '提取密码',
    expires: '有效期至',
    never: '永久有效',
    files: '文件',
    more: '等 {0} 个',
    notice: '此邮件由 CADCloud 代上述用户发送；分享者名称和文件名由该用户填写，并非 CADCloud 的内容。如果您不认识该用户，请忽略此邮件。',
  },
  en: {
    subject: 'A CADCloud user shared files with you',
    intro: 'A CADCloud user shared files with you on CADCloud.',
    sender: 'Shared by',
    link: 'Link',
    code: 'Extraction code',
    password: 'Extraction password',
    expires: 'Valid until',
    never: 'Never expires',
    files: 'Files',
    more: 'and {0} more',
    notice: 'CADCloud sent this message on behalf of the user above. Their name and the file names were written by that user, not by CADCloud. If you do not know them, ignore this message.',
  },
  ko: {
    subject: 'CADCloud 사용자가 파일을 공유했습니다',
    intro: 'CADCloud 사용자가 CADCloud에서 파일을 공유했습니다.',
    sender: '공유한 사람',
    link: '링크',
    code: '추출 코드',
    password: '추출 비밀번호',
    expires: '유효 기간',
    never: '만료 없음',
    files: '파일',
    more: '외 {0}개',
    notice: '이 메일은 위 사용자를 대신하여 CADCloud가 보냈습니다. 이름과 파일 이름은 CADCloud가 아니라 그 사용자가 작성한 것입니다. 모르는 사람이라면 이 메일을 무시하세요.',
  },
  de: {
    subject: 'Ein CADCloud-Nutzer hat Dateien mit Ihnen geteilt',
    intro: 'Ein CADCloud-Nutzer hat auf CADCloud Dateien mit Ihnen geteilt.',
    sender: 'Geteilt von',
    link: 'Link',
    code: 'Extraktionscode',
    password: 'Extraktionspasswort',
    expires: 'Gültig bis',
    never: 'Läuft nie ab',
    files: 'Dateien',
    more: 'und {0} weitere',
    notice: 'CADCloud hat diese Nachricht im Auftrag des oben genannten Nutzers gesendet. Name und Dateinamen stammen von diesem Nutzer, nicht von CADCloud. Wenn Sie ihn nicht kennen, ignorieren Sie diese Nachricht.',
  },
};

const NAME_MAX = 60;
const FILE_NAME_MAX = 100;
const FILES_LISTED = 20;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** User text as one plain line: no control, line or direction-changing characters, at most `max` characters. */
function plain(s: string, max: number): string {
  const flat = s.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function shareMail(language: string | undefined, o: { sender: { name: string; email: string }; url: string; code: string; password: string; names: string[]; expiresAt: number | null }) {
  const t = TEXT[normalizeLanguage(language)];
  const name = plain(o.sender.name, NAME_MAX);
  const email = plain(o.sender.email, 254);
  const sender = name ? `“${name}” <${email}>` : `<${email}>`;
  const until = o.expiresAt === null ? t.never : new Date(o.expiresAt).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const listed = o.names.slice(0, FILES_LISTED).map((n) => plain(n, FILE_NAME_MAX));
  const files = listed.join(', ') + (o.names.length > FILES_LISTED ? ` ${t.more.replace('{0}', String(o.names.length - FILES_LISTED))}` : '');
  const lines: [string, string][] = [
    [t.sender, sender],
    [t.files, files],
    [t.link, o.url],
    [t.code, o.code],
    ...(o.password ? ([[t.password, o.password]] as [string, string][]) : []),
    [t.expires, until],
  ];
  const text = [t.intro, '', ...lines.map(([k, v]) => `${k}: ${v}`), '', t.notice].join('\n');
  const html = `<p>${escapeHtml(t.intro)}</p><ul>${lines
    .map(([k, v]) => `<li>${escapeHtml(k)}: ${k === t.link ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v)}</li>`)
    .join('')}</ul><p><small>${escapeHtml(t.notice)}</small></p>`;
  return { subject: t.subject, text, html };
}
