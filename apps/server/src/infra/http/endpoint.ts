import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { clientInfoSchema, RTN_SUCCESS } from '@cadcloud/contracts';
import { appError } from './app-error.ts';
import { SIGNED_PATH_PREFIX, sealResponse } from '@cadcloud/contracts/signed-call';
import { normalizeLanguage } from '@cadcloud/i18n';
import { formData, isFormStyle } from './form-style.ts';
import { openSignedRequest, type CallSecrets } from './signed-style.ts';
import { knownErrorEnvelope } from './error-handler.ts';
import type { SessionUser } from '../../modules/users/sessions.service.ts';

export type AuthMode = 'user' | 'optional' | 'none';

export interface EndpointContext<A extends AuthMode> {
  req: FastifyRequest;
  reply: FastifyReply;
  user: A extends 'user' ? SessionUser : SessionUser | null;
}

/** A ready-made envelope (already serialised JSON), e.g. from a cache: sent as it is. */
export class RawJson {
  constructor(readonly json: string) {}
}

export interface EndpointDef<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny, A extends AuthMode> {
  path: string;
  summary: string;
  tag: string;
  auth: A;
  request: Req;
  response: Res;
  handler(data: z.output<Req>, ctx: EndpointContext<A>): Promise<z.input<Res> | RawJson>;
  /** also answers call style 1 (form fields + ticket + clientType → `{code, msg, data}`; form-style.ts) */
  formStyle?: boolean;
  /** also answers call style 3 at SIGNED_PATH_PREFIX + path (signed and encrypted; signed-style.ts) */
  signed?: boolean;
}

/** What /api/docs is generated from. */
export interface RegisteredEndpoint {
  method: 'post' | 'get' | 'put';
  path: string;
  summary: string;
  tag: string;
  auth: AuthMode;
  request?: z.ZodTypeAny;
  response?: z.ZodTypeAny;
  /** for multipart / binary endpoints: a description of the body instead of a schema */
  bodyNote?: string;
  envelope: 'style2' | 'code-data' | 'none' | 'signed';
  /** call style 1 is accepted as well (documented as an application/x-www-form-urlencoded body) */
  formStyle?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRegistry: RegisteredEndpoint[];
    callSecrets: CallSecrets;
  }
}

export function ok<T>(bizData: T) {
  return { rtnCode: RTN_SUCCESS, bizData, msg: 'success' };
}

const bodySchema = z.object({ data: z.unknown().optional(), clientInfo: clientInfoSchema.optional() }).passthrough();

/**
 * Declares one endpoint: validate → authorize → handler → envelope, and documents it. Call style 2 always; call
 * style 1 (`formStyle`) and call style 3 at `/secure<path>` (`signed`) when the definition says so.
 */
export function defineEndpoint<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny, A extends AuthMode>(app: FastifyInstance, def: EndpointDef<Req, Res, A>) {
  app.apiRegistry.push({ method: 'post', path: def.path, summary: def.summary, tag: def.tag, auth: def.auth, request: def.request, response: def.response, envelope: 'style2', formStyle: def.formStyle });
  app.post(def.path, async (req, reply) => {
    const form = isFormStyle(req);
    if (form && !def.formStyle) throw appError('request.malformed');
    if (def.auth === 'user' && !req.user) throw appError('auth.notSignedIn');
    const data = def.request.parse(form ? formData(req) : (bodySchema.parse(req.body ?? {}).data ?? {}));
    const result = await def.handler(data, { req, reply, user: req.user as EndpointContext<A>['user'] });
    if (form) return { code: RTN_SUCCESS, msg: 'success', data: result instanceof RawJson ? JSON.parse(result.json).bizData : result };
    if (result instanceof RawJson) return reply.type('application/json; charset=utf-8').send(result.json);
    return ok(result);
  });
  if (!def.signed) return;
  const securePath = SIGNED_PATH_PREFIX + def.path;
  app.apiRegistry.push({ method: 'post', path: securePath, summary: `${def.summary} (call style 3: signed and encrypted)`, tag: def.tag, auth: 'user', request: def.request, response: def.response, envelope: 'signed' });
  app.post(securePath, async (req, reply) => {
    // failures of the signature layer (not signed in, stale, bad sign, replay) are answered in clear by the error handler
    const opened = await openSignedRequest<{ data?: unknown; clientInfo?: { clientType?: string; language?: string } }>(req, app.callSecrets);
    const clientInfo = clientInfoSchema.optional().parse(opened.payload.clientInfo);
    if (clientInfo?.clientType) req.clientType = clientInfo.clientType;
    let envelope: unknown;
    try {
      const data = def.request.parse(opened.payload.data ?? {});
      const result = await def.handler(data, { req, reply, user: req.user as EndpointContext<A>['user'] });
      envelope = result instanceof RawJson ? JSON.parse(result.json) : ok(result);
    } catch (e) {
      // the call's own failures travel encrypted like its answers; anything else is ours (logged, generic)
      envelope = knownErrorEnvelope(e, normalizeLanguage(clientInfo?.language));
      if (!envelope) throw e;
    }
    return sealResponse(opened.keys, opened.date, opened.salt, envelope);
  });
}

/** Records a non-JSON endpoint (multipart, binary) in the API document. */
export function documentEndpoint(app: FastifyInstance, e: Omit<RegisteredEndpoint, 'envelope'> & { envelope?: RegisteredEndpoint['envelope'] }) {
  app.apiRegistry.push({ envelope: 'style2', ...e });
}
