import { defineConfig, envInt, envOptionalString } from '../../infra/config/config.ts';

/**
 * Feedback and the information pages (issue 23). Every resource a feedback request spends is bounded: the body by
 * the contract (content, screenshot size), the number of messages by these budgets, counted per signed-in user and
 * per client address (req.ip, which honours TRUSTED_PROXIES only).
 */
export const feedbackConfig = defineConfig({
  feedbackPerHour: { env: 'FEEDBACK_PER_HOUR', schema: envInt(5, 1, 10_000), doc: 'feedback messages a user, and a client address, may send per hour (default 5)' },
  feedbackPerDay: { env: 'FEEDBACK_PER_DAY', schema: envInt(20, 1, 100_000), doc: 'feedback messages a user, and a client address, may send per day (default 20)' },
  contactEmail: { env: 'CONTACT_EMAIL', schema: envOptionalString(), doc: 'the address /contactus shows for questions (none by default: the page points to the feedback form)' },
  contactFile: { env: 'CONTACT_FILE', schema: envOptionalString(), doc: 'a UTF-8 Markdown file (or .html, reduced to text) whose text /contactus shows (rendered as elements, never as HTML); the built-in text when unset' },
  declarationFile: { env: 'DECLARATION_FILE', schema: envOptionalString(), doc: 'a UTF-8 Markdown file (or .html, reduced to text) with the legal declaration /declaration shows (rendered as elements, never as HTML); the built-in self-hosting and AGPL notice when unset' },
});
