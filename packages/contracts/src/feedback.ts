import { z } from 'zod';

/**
 * Feedback (spec sections 1, 5, 7; issue 23): `POST /cloud/v5/advice/add`, call style 2. A visitor may send it too
 * (the spec requires the e-mail, so the operator can always answer); a signed-in sender's account is recorded.
 *   POST /cloud/v5/advice/add     adviceAddRequest → { id }
 *   POST /global/v5/common/infoPage   infoPageRequest → infoPageResult (contact and declaration texts the operator configures)
 */
export const FEEDBACK_PATHS = {
  add: '/cloud/v5/advice/add',
  infoPage: '/global/v5/common/infoPage',
} as const;

export const FEEDBACK_CONTENT_MAX = 2000;
export const FEEDBACK_EMAIL_MAX = 320;
export const FEEDBACK_PAGE_URL_MAX = 1000;
/** the screenshot's decoded size at most (the JSON body, base64 included, stays under the app's 2 MB limit) */
export const FEEDBACK_SCREENSHOT_MAX_BYTES = 1024 * 1024;
/** accepted screenshot types: `data:<type>;base64,…` */
export const FEEDBACK_SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const adviceAddRequest = z.object({
  email: z.string().max(FEEDBACK_EMAIL_MAX).default('').describe("required and valid (spec section 5: 'Please enter your e-mail' / 'E-mail format is incorrect')"),
  content: z.string().max(FEEDBACK_CONTENT_MAX * 2).default('').describe(`required, at most ${FEEDBACK_CONTENT_MAX} characters after trimming`),
  pageUrl: z.string().max(FEEDBACK_PAGE_URL_MAX).optional().describe('the page the sender was on (path and query of this site)'),
  screenshot: z.string().max(Math.ceil((FEEDBACK_SCREENSHOT_MAX_BYTES * 4) / 3) + 64).optional().describe(`optional: data:image/png|jpeg|webp;base64,…, at most ${FEEDBACK_SCREENSHOT_MAX_BYTES} bytes decoded`),
});
export type AdviceAddRequest = z.input<typeof adviceAddRequest>;
export const adviceAddResult = z.object({ id: z.string() });

export const INFO_PAGES = ['contact', 'declaration'] as const;
export const infoPageRequest = z.object({ name: z.enum(INFO_PAGES) });
export const infoPageResult = z.object({
  /** the operator's text (Markdown; an .html file reduced to text by the server), rendered as elements, never as HTML; null: the app shows its default */
  text: z.string().nullable(),
  /** contact page: the operator's address for questions; null when not configured */
  email: z.string().nullable(),
});
export type InfoPageResult = z.infer<typeof infoPageResult>;

/** Client-side check of the feedback form: the i18n key of the first problem (namespace errors), or null. */
export function feedbackProblem(o: { email: string; content: string }, emailPattern: RegExp): string | null {
  const email = o.email.trim();
  if (!email) return 'feedback.emailRequired';
  if (!emailPattern.test(email) || email.length > FEEDBACK_EMAIL_MAX) return 'feedback.emailInvalid';
  const content = o.content.trim();
  if (!content) return 'feedback.contentRequired';
  if (content.length > FEEDBACK_CONTENT_MAX) return 'feedback.contentTooLong';
  return null;
}
