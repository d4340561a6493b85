import { EMAIL, SHARE_CODE_KINDS, SHARE_DAYS_MAX, SHARE_EMAIL_RECIPIENTS_MAX, SHARE_PASSWORD, SHARE_PASSWORD_DIGITS, allowedCodeKinds, type ShareCodeKind } from '@cadcloud/contracts';

/**
 * Section 5 rules of the share forms, as i18n keys of namespace `shares` (null: valid). The server checks the same
 * rules; these spare a round trip and give the spec's messages at the field.
 */

/**
 * Valid days: required, an integer 0–99. Something that is not a number at all → 'Please enter the correct number';
 * a number that is negative, fractional or above 99 → 'Please enter a positive integer 0-99!'; empty →
 * 'Share days cannot be empty' on phones, the 0–99 message on the desktop.
 */
export function checkDays(input: string | number | null | undefined, phone = false): string | null {
  const text = String(input ?? '').trim();
  if (text === '') return phone ? 'shares.error.daysEmpty' : 'shares.error.daysRange';
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return 'shares.error.daysNumber';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > SHARE_DAYS_MAX) return 'shares.error.daysRange';
  return null;
}

/** A new share's optional password: '' or exactly 4 letters or digits. */
export function checkPassword(input: string | null | undefined): string | null {
  const text = input ?? '';
  return text === '' || SHARE_PASSWORD.test(text) ? null : 'shares.error.password';
}

/**
 * The code lengths a share may use (contracts share-extraction.ts): the longer it is valid, the longer its code,
 * unless a password multiplies what a guesser must cover. While the days are not a valid number yet, every kind.
 */
export function codeKindsFor(days: string | number | null | undefined, password: string | null | undefined): ShareCodeKind[] {
  if (checkDays(days) !== null) return [...SHARE_CODE_KINDS];
  const pw = password ?? '';
  return allowedCodeKinds(Number(String(days).trim()), checkPassword(pw) === null ? pw : '');
}

/** A code kind too short for the validity: 'This validity needs a longer code or an extraction password'. */
export function checkCodeKind(kind: ShareCodeKind | null | undefined, days: string | number | null | undefined, password: string | null | undefined): string | null {
  return !kind || codeKindsFor(days, password).includes(kind) ? null : 'shares.error.codeTooShort';
}

/** A password set later on an existing share: 4 digits ('Password must be 4 digits'), or '' to remove it. */
export function checkPasswordUpdate(input: string | null | undefined): string | null {
  const text = input ?? '';
  return text === '' || SHARE_PASSWORD_DIGITS.test(text) ? null : 'shares.error.passwordDigits';
}

/** Recipient addresses typed in one box: separated by commas, semicolons (also full-width), spaces or new lines. */
export function splitEmails(input: string | null | undefined): string[] {
  return [...new Set((input ?? '').split(/[\s,;，；]+/).map((s) => s.trim()).filter(Boolean))];
}

/**
 * At least one address ('Please enter the sending email address'), every one well formed ('E-mail format is
 * incorrect'), at most SHARE_EMAIL_RECIPIENTS_MAX of them ('email send fail: at most 20 addresses at a time').
 */
export function checkEmails(input: string | null | undefined): string | null {
  const list = splitEmails(input);
  if (!list.length) return 'shares.error.emailEmpty';
  if (list.length > SHARE_EMAIL_RECIPIENTS_MAX) return 'shares.error.emailTooMany';
  return list.every((e) => EMAIL.test(e) && e.length <= 320) ? null : 'shares.error.email';
}

/** Group share: at least one group. */
export function checkGroups(groupIds: readonly string[]): string | null {
  return groupIds.length ? null : 'shares.error.groupEmpty';
}

export interface ParsedShare {
  rand: string;
  /** temporary shares live under /easyShare and /webH5/simple */
  easy: boolean;
  shareId?: string;
  code?: string;
  password?: string;
}

/**
 * What a visitor pastes on the phone entry page: a share address (any of /share/{rand}, /webH5/share/{id}/{rand},
 * /webH5/simple/{rand}, /easyShare/{rand}), possibly followed by the copied extraction code and password, or a bare
 * rand. Null when it is none of these.
 */
export function parseShareInput(input: string): ParsedShare | null {
  const text = input.trim();
  if (!text) return null;
  const code = /(?:提取码|extraction code|code|추출 코드|extraktionscode)\s*[:：]\s*([0-9]{6}|[0-9]{4}|[2-9a-hjkmnp-z]{8})(?![0-9a-z])/i.exec(text)?.[1]?.toLowerCase();
  const password = /(?:提取密码|extraction password|password|추출 비밀번호|extraktionspasswort)\s*[:：]\s*([A-Za-z0-9]{4})/i.exec(text)?.[1];
  const rand = '([A-Za-z0-9_-]{4,64})';
  const patterns: [RegExp, (m: RegExpExecArray) => ParsedShare][] = [
    [new RegExp(`/webH5/share/([A-Za-z0-9_-]{1,64})/${rand}`), (m) => ({ rand: m[2], shareId: m[1], easy: false })],
    [new RegExp(`/webH5/simple/${rand}`), (m) => ({ rand: m[1], easy: true })],
    [new RegExp(`/easyShare/${rand}`), (m) => ({ rand: m[1], easy: true })],
    [new RegExp(`/share/${rand}`), (m) => ({ rand: m[1], easy: false })],
  ];
  for (const [re, make] of patterns) {
    const m = re.exec(text);
    if (m) return { ...make(m), ...(code ? { code } : {}), ...(password ? { password } : {}) };
  }
  const bare = /^[A-Za-z0-9_-]{4,64}$/.exec(text);
  return bare ? { rand: bare[0], easy: false } : null;
}

/** Remaining time of a share in whole units, for display; null when it never expires. */
export function splitRemaining(ms: number | null): { days: number; hours: number; minutes: number } | null {
  if (ms === null) return null;
  const m = Math.max(0, Math.floor(ms / 60_000));
  return { days: Math.floor(m / 1440), hours: Math.floor((m % 1440) / 60), minutes: m % 60 };
}
