import { readFile, stat } from 'node:fs/promises';
import {
  EMAIL, FEEDBACK_CONTENT_MAX, FEEDBACK_PAGE_URL_MAX, FEEDBACK_SCREENSHOT_MAX_BYTES, FEEDBACK_SCREENSHOT_TYPES, feedbackProblem,
  type AdviceAddRequest, type InfoPageResult,
} from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { newId } from '../../infra/db/ids.ts';
import { appError } from '../../infra/http/app-error.ts';
import { reserveUserMail, returnUserMail } from '../../infra/mail/mail-budget.ts';
import type { ErrorCode } from '@cadcloud/contracts';
import { feedbackReplyMail } from './feedback-mail.ts';
import { createFeedbackRepository, type FeedbackRow } from './feedback.repository.ts';

/** an operator's text file larger than this is cut (it is a page of text, not a download) */
const INFO_FILE_MAX_BYTES = 256 * 1024;

const SIGNATURES: Record<(typeof FEEDBACK_SCREENSHOT_TYPES)[number], (b: Buffer) => boolean> = {
  'image/png': (b) => b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP',
};

/**
 * A screenshot given as `data:<type>;base64,…`: one of the accepted image types, its bytes what the type says
 * (checked by signature, so nothing else is stored under an image name), at most FEEDBACK_SCREENSHOT_MAX_BYTES.
 */
export function decodeScreenshot(dataUrl: string): { type: string; ext: string; bytes: Buffer } {
  const m = /^data:(image\/(?:png|jpeg|webp));base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl);
  if (!m) throw appError('feedback.screenshotInvalid');
  const type = m[1] as (typeof FEEDBACK_SCREENSHOT_TYPES)[number];
  if (m[2].length > Math.ceil(FEEDBACK_SCREENSHOT_MAX_BYTES / 3) * 4) throw appError('feedback.screenshotInvalid');
  const bytes = Buffer.from(m[2], 'base64');
  if (bytes.length > FEEDBACK_SCREENSHOT_MAX_BYTES || !SIGNATURES[type](bytes)) throw appError('feedback.screenshotInvalid');
  return { type, ext: type.slice('image/'.length).replace('jpeg', 'jpg'), bytes };
}

/** Only a path of this site or an http(s) address is kept as "the page the sender was on". */
function cleanPageUrl(u: string | undefined): string | null {
  const s = (u ?? '').trim().slice(0, FEEDBACK_PAGE_URL_MAX);
  return /^(\/(?!\/)|https?:\/\/)/i.test(s) ? s : null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/**
 * An operator's HTML file as the Markdown-like text the pages render: scripts and styles dropped, headings and list
 * items marked, every other tag removed (the page never shows the operator's HTML as HTML).
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<h([1-4])\b[^>]*>/gi, (_, n: string) => `\n${'#'.repeat(Number(n))} `)
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|ul|ol|tr|section|article)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, e: string) => ENTITIES[e])
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

async function readOperatorText(file: string | undefined): Promise<string | null> {
  if (!file) return null;
  try {
    const size = (await stat(file)).size;
    const buf = await readFile(file);
    const raw = buf.subarray(0, Math.min(size, INFO_FILE_MAX_BYTES)).toString('utf8').replace(/\uFFFD$/, '');
    const text = /\.html?$/i.test(file) ? htmlToText(raw) : raw;
    return text.trim() ? text : null;
  } catch {
    // a missing or unreadable file: the built-in text, rather than a broken page
    return null;
  }
}

export function createFeedbackService(deps: Pick<AppDeps, 'db' | 'config' | 'storage' | 'mailer'>) {
  const repo = createFeedbackRepository(deps.db);
  const limits = { perHour: deps.config.feedbackPerHour, perDay: deps.config.feedbackPerDay };
  const tooMany = (which: 'hour' | 'day') => appError('feedback.tooMany', [which === 'hour' ? 60 : 24 * 60]);

  return {
    repo,
    /**
     * Stores one feedback message (spec section 5: e-mail required and valid, content required) from a signed-in
     * user (uid) or a visitor (uid null). Counted against the budget of the user and of the client address, so a
     * visitor cannot flood the table and a user cannot by changing addresses.
     */
    async add(d: AdviceAddRequest, o: { uid: string | null; ip: string; language: string; now?: number }): Promise<{ id: string }> {
      const now = o.now ?? Date.now();
      const email = (d.email ?? '').trim();
      const content = (d.content ?? '').trim();
      const problem = feedbackProblem({ email, content }, EMAIL);
      if (problem) throw appError(problem as ErrorCode, problem === 'feedback.contentTooLong' ? [FEEDBACK_CONTENT_MAX] : []);
      const shot = d.screenshot ? decodeScreenshot(d.screenshot) : null;

      const keys = [`ip:${o.ip}`, ...(o.uid ? [`u:${o.uid}`] : [])];
      const reserved: string[] = [];
      for (const key of keys) {
        const r = await reserveUserMail(deps.db, key, 1, limits, now, 'feedback_counts');
        if (r !== 'ok') {
          for (const k of reserved) await returnUserMail(deps.db, k, 1, undefined, 'feedback_counts');
          throw tooMany(r);
        }
        reserved.push(key);
      }

      const id = newId();
      const screenshotKey = shot ? `feedback/${id}.${shot.ext}` : null;
      try {
        if (shot && screenshotKey) await deps.storage.put(screenshotKey, shot.bytes, { size: shot.bytes.length, contentType: shot.type });
        await repo.insert({ id, uid: o.uid, email, content, page_url: cleanPageUrl(d.pageUrl), screenshot_key: screenshotKey, ip: o.ip, language: o.language, created_at: now, reply: null, replied_at: null });
      } catch (e) {
        for (const k of reserved) await returnUserMail(deps.db, k, 1, undefined, 'feedback_counts');
        if (screenshotKey) await deps.storage.delete(screenshotKey).catch(() => {});
        throw e;
      }
      return { id };
    },

    async list(o: { open: boolean; limit: number }): Promise<FeedbackRow[]> {
      return repo.list(o);
    },

    /** The operator's answer: mailed to the sender in their language, then recorded (a failed send records nothing). */
    async reply(id: string, text: string, now = Date.now()): Promise<FeedbackRow | undefined> {
      const row = await repo.find(id);
      if (!row) return undefined;
      await deps.mailer.send(feedbackReplyMail({ to: row.email, language: row.language, reply: text, content: row.content }));
      await repo.setReply(id, text, now);
      return repo.find(id);
    },

    /** /contactus and /declaration: the operator's texts (null: the app shows its built-in text). */
    async infoPage(name: 'contact' | 'declaration'): Promise<InfoPageResult> {
      if (name === 'contact') return { text: await readOperatorText(deps.config.contactFile), email: deps.config.contactEmail?.trim() || null };
      return { text: await readOperatorText(deps.config.declarationFile), email: null };
    },
  };
}
