import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { ERRORS } from '@cadcloud/contracts';
import { normalizeLanguage, serverMessage, type Language } from '@cadcloud/i18n';
import { AppError } from './app-error.ts';
import { isFormStyle, toFormEnvelope } from './form-style.ts';

export function requestLanguage(req: FastifyRequest): Language {
  const body = req.body as { clientInfo?: { language?: string }; language?: unknown } | undefined;
  const q = req.query as { lang?: string } | undefined;
  // call style 1 names the language as a form field
  const formLanguage = typeof body?.language === 'string' ? body.language : undefined;
  return normalizeLanguage(body?.clientInfo?.language ?? formLanguage ?? q?.lang ?? (req.cookies?.lang as string | undefined) ?? String(req.headers['accept-language'] ?? '').split(',')[0]);
}

/**
 * What the multipart parser (busboy, under @fastify/multipart) throws for a body it cannot read: plain errors
 * without a status, told apart by their text. They are the client's malformed request, not our failure.
 */
const MULTIPART_PARSE_ERROR = /^(Multipart: Boundary not found|Unexpected end of multipart data|(Part|Preamble) terminated early|The needle cannot|Unsupported Content-Type|Missing Content-Type)/;

/** The envelope of a business or validation error (null for anything else: an internal failure). */
export function knownErrorEnvelope(err: unknown, lang: Language): { rtnCode: string; bizData: Record<string, unknown>; msg: string } | null {
  if (err instanceof AppError) return { rtnCode: err.rtnCode, bizData: { ...err.details, code: err.code }, msg: serverMessage(ERRORS[err.code].key, lang, err.args) };
  if (err instanceof ZodError) {
    const detail = err.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; ');
    return { rtnCode: ERRORS['request.invalid'].rtnCode, bizData: { code: 'request.invalid', detail }, msg: serverMessage(ERRORS['request.invalid'].key, lang) };
  }
  return null;
}

/**
 * One place turns every error into the `{rtnCode, bizData, msg}` envelope (`{code, msg, data}` for call style 1);
 * internals hide behind a log id.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError | ZodError, req, rawReply) => {
    const lang = requestLanguage(req);
    const form = isFormStyle(req);
    const reply = { code: (status: number) => ({ send: (body: { rtnCode: string; bizData?: unknown; msg: string }) => rawReply.code(status).send(form ? toFormEnvelope(body) : body) }) };
    const known = knownErrorEnvelope(err, lang);
    if (known) return reply.code(err instanceof AppError ? err.httpStatus : 400).send(known);
    const fe = err as FastifyError;
    if (!fe.statusCode && req.isMultipart?.() && MULTIPART_PARSE_ERROR.test(fe.message ?? '')) {
      return reply.code(400).send({ rtnCode: ERRORS['request.malformed'].rtnCode, bizData: { code: 'request.malformed', detail: fe.message }, msg: serverMessage(ERRORS['request.malformed'].key, lang) });
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (fe.statusCode === 400 && fe instanceof SyntaxError)) {
      return reply.code(400).send({ rtnCode: ERRORS['request.malformed'].rtnCode, bizData: { code: 'request.malformed' }, msg: serverMessage(ERRORS['request.malformed'].key, lang) });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      const code = fe.statusCode === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE' ? 'request.invalid' : 'request.malformed';
      return reply.code(fe.statusCode).send({ rtnCode: ERRORS[code].rtnCode, bizData: { code, detail: fe.message }, msg: serverMessage(ERRORS[code].key, lang) });
    }
    // the request id names this failure in the log (every line of the request carries it) and in the answer
    const logId = String(req.id);
    req.log.error({ err, logId }, 'internal error');
    return reply.code(500).send({ rtnCode: ERRORS.internal.rtnCode, bizData: { code: 'internal', logId, requestId: logId }, msg: serverMessage(ERRORS.internal.key, lang, [logId]) });
  });
}
