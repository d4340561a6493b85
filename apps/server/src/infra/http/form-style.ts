import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Call style 1 (spec section 7): a form-encoded POST of the call's fields plus `ticket` and `clientType`, answered
 * `{code, msg, data}`. Only endpoints declared with `formStyle` take it (endpoint.ts). Such a request is signed in
 * by its `ticket` field (or `utoken`), never by the cookie: a form on another site can post here, but it cannot
 * know the ticket, so style 1 opens no cross-site request forgery.
 */
const FORM = 'application/x-www-form-urlencoded';

export function isFormStyle(req: FastifyRequest): boolean {
  return String(req.headers['content-type'] ?? '').toLowerCase().startsWith(FORM);
}

/** the fields of style 1 that are the caller's, not the call's */
const ENVELOPE_FIELDS = new Set(['ticket', 'clientType', 'clientVersion', 'appVersion', 'language']);

/** The call's own fields (what style 2 carries in `data`). */
export function formData(req: FastifyRequest): Record<string, string> {
  const body = (req.body ?? {}) as Record<string, string>;
  return Object.fromEntries(Object.entries(body).filter(([k]) => !ENVELOPE_FIELDS.has(k)));
}

/** The style-2 envelope `{rtnCode, bizData, msg}` as style 1 answers it. */
export function toFormEnvelope(e: { rtnCode: string; bizData?: unknown; msg: string }) {
  return { code: e.rtnCode, msg: e.msg, data: e.bizData ?? null };
}

export function registerFormStyle(app: FastifyInstance) {
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => {
    const fields: Record<string, string> = {};
    // a field given twice keeps its last value, as the spec's clients send each once
    for (const [k, v] of new URLSearchParams(body as string)) fields[k] = v;
    done(null, fields);
  });
}
