import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { clientInfoSchema, RTN_SUCCESS } from '@cadcloud/contracts';
import { appError } from './app-error.ts';
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
  envelope: 'style2' | 'code-data' | 'none';
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRegistry: RegisteredEndpoint[];
  }
}

export function ok<T>(bizData: T) {
  return { rtnCode: RTN_SUCCESS, bizData, msg: 'success' };
}

const bodySchema = z.object({ data: z.unknown().optional(), clientInfo: clientInfoSchema.optional() }).passthrough();

/** Declares one call-style-2 endpoint: validate → authorize → handler → envelope, and documents it. */
export function defineEndpoint<Req extends z.ZodTypeAny, Res extends z.ZodTypeAny, A extends AuthMode>(app: FastifyInstance, def: EndpointDef<Req, Res, A>) {
  app.apiRegistry.push({ method: 'post', path: def.path, summary: def.summary, tag: def.tag, auth: def.auth, request: def.request, response: def.response, envelope: 'style2' });
  app.post(def.path, async (req, reply) => {
    if (def.auth === 'user' && !req.user) throw appError('auth.notSignedIn');
    const body = bodySchema.parse(req.body ?? {});
    const data = def.request.parse(body.data ?? {});
    const result = await def.handler(data, { req, reply, user: req.user as EndpointContext<A>['user'] });
    if (result instanceof RawJson) return reply.type('application/json; charset=utf-8').send(result.json);
    return ok(result);
  });
}

/** Records a non-JSON endpoint (multipart, binary) in the API document. */
export function documentEndpoint(app: FastifyInstance, e: Omit<RegisteredEndpoint, 'envelope'> & { envelope?: RegisteredEndpoint['envelope'] }) {
  app.apiRegistry.push({ envelope: 'style2', ...e });
}
