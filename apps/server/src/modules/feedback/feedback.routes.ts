import * as c from '@cadcloud/contracts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createFeedbackService } from './feedback.service.ts';

/** Feedback and the information pages (issue 23): /feedback, /webH5/info/feedback, /contactus, /declaration. */
export const feedbackRoutes: RouteModule = async (app, { deps }) => {
  const feedback = createFeedbackService(deps);
  const tag = 'feedback';
  const P = c.FEEDBACK_PATHS;

  defineEndpoint(app, {
    path: P.add, tag, auth: 'optional',
    summary: `Sends feedback, signed in or as a visitor: e-mail required and valid, content required (at most ${c.FEEDBACK_CONTENT_MAX} characters), optional pageUrl and screenshot (PNG/JPEG/WebP data URL, at most ${c.FEEDBACK_SCREENSHOT_MAX_BYTES} bytes). FEEDBACK_PER_HOUR / FEEDBACK_PER_DAY per user and per client address. Errors: feedback.emailRequired, feedback.emailInvalid, feedback.contentRequired, feedback.contentTooLong, feedback.screenshotInvalid, feedback.tooMany`,
    request: c.adviceAddRequest, response: c.adviceAddResult,
    handler: (d, { user, req }) => feedback.add(d, { uid: user?.id ?? null, ip: req.ip, language: requestLanguage(req) }),
  });
  defineEndpoint(app, {
    path: P.infoPage, tag, auth: 'none',
    summary: 'The operator-configured text of /contactus (CONTACT_FILE, CONTACT_EMAIL) or /declaration (DECLARATION_FILE); text null: the app shows its built-in text. Shown as text, never as HTML',
    request: c.infoPageRequest, response: c.infoPageResult,
    handler: (d) => feedback.infoPage(d.name),
  });
};
