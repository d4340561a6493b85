import { normalizeLanguage, type Language } from '@cadcloud/i18n';

/** The mails of the freeze (spec section 4): the free unfreeze's confirmation link and the warning before the purge. */
const TEXT: Record<Language, { confirmSubject: string; confirm: string; warnSubject: string; warn: string; date: string }> = {
  zh: {
    confirmSubject: 'CADCloud 免费解冻确认',
    confirm: '您申请了一次性免费解冻（1 个月）。请在 24 小时内打开下面的链接确认；如果不是您本人操作，请忽略此邮件。',
    warnSubject: 'CADCloud 冻结数据即将被清除',
    warn: '您的云盘空间已冻结。冻结满 3 个月的数据将被清除。请在下述日期之前续费、购买空间、清理文件或公开图纸以解冻。',
    date: '清除日期',
  },
  en: {
    confirmSubject: 'CADCloud free unfreeze confirmation',
    confirm: 'You asked for the one-time free unfreeze (1 month). Open the link below within 24 hours to confirm it; if this was not you, ignore this mail.',
    warnSubject: 'Your frozen CADCloud data will be cleared soon',
    warn: 'Your cloud space is frozen. Frozen data is cleared after 3 months. Renew, buy space, clean up files or publish drawings before the date below to unfreeze it.',
    date: 'Cleared on',
  },
  ko: {
    confirmSubject: 'CADCloud 무료 동결 해제 확인',
    confirm: '일회성 무료 동결 해제(1개월)를 신청하셨습니다. 24시간 안에 아래 링크를 열어 확인하세요. 본인이 아니라면 이 메일을 무시하세요.',
    warnSubject: '동결된 CADCloud 데이터가 곧 삭제됩니다',
    warn: '클라우드 공간이 동결되었습니다. 동결된 데이터는 3개월 후 삭제됩니다. 아래 날짜 전에 갱신, 공간 구매, 파일 정리 또는 도면 공개로 동결을 해제하세요.',
    date: '삭제 날짜',
  },
  de: {
    confirmSubject: 'CADCloud: kostenloses Entsperren bestätigen',
    confirm: 'Sie haben das einmalige kostenlose Entsperren (1 Monat) angefordert. Öffnen Sie den Link unten innerhalb von 24 Stunden, um es zu bestätigen; waren Sie es nicht, ignorieren Sie diese Mail.',
    warnSubject: 'Ihre eingefrorenen CADCloud-Daten werden bald gelöscht',
    warn: 'Ihr Cloud-Speicher ist eingefroren. Eingefrorene Daten werden nach 3 Monaten gelöscht. Verlängern Sie, kaufen Sie Speicher, räumen Sie Dateien auf oder veröffentlichen Sie Zeichnungen vor dem unten genannten Datum, um ihn zu entsperren.',
    date: 'Gelöscht am',
  },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function freeUnfreezeMail(language: string | undefined, url: string) {
  const t = TEXT[normalizeLanguage(language)];
  return { subject: t.confirmSubject, text: `${t.confirm}\n\n${url}`, html: `<p>${escapeHtml(t.confirm)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>` };
}

/** Sent by the scheduled job, which knows no language of the user: Chinese (the default) and English. */
export function purgeWarningMail(purgeAt: number) {
  const date = new Date(purgeAt).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const parts = (['zh', 'en'] as const).map((l) => TEXT[l]);
  return {
    subject: `${parts[0].warnSubject} / ${parts[1].warnSubject}`,
    text: parts.map((t) => `${t.warn}\n${t.date}: ${date}`).join('\n\n'),
    html: parts.map((t) => `<p>${escapeHtml(t.warn)}</p><p>${escapeHtml(t.date)}: ${escapeHtml(date)}</p>`).join('<hr>'),
  };
}
