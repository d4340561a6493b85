import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SIGNED_HEADERS, SIGNED_REQUEST_ID } from '@cadcloud/contracts/signed-call';
import type { RegisteredEndpoint } from './endpoint.ts';

function jsonSchema(s: z.ZodTypeAny | undefined, io: 'input' | 'output') {
  if (!s) return {};
  try {
    return z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const SIGNED_BODY = { type: 'object', properties: { sign: { type: 'string' }, key: { type: 'string' } }, required: ['sign', 'key'] };
const SIGNED_HEADER_PARAMS = [
  { in: 'header', name: SIGNED_HEADERS.date, required: true, schema: { type: 'string' }, description: 'ms since epoch; refused beyond 5 minutes from the server clock' },
  { in: 'header', name: SIGNED_HEADERS.requestId, required: true, schema: { type: 'string', const: SIGNED_REQUEST_ID } },
  { in: 'header', name: SIGNED_HEADERS.agent, required: false, schema: { type: 'string' }, description: 'client agent' },
  { in: 'header', name: SIGNED_HEADERS.salt, required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9]{6}$' }, description: 'random per request; a repeated date + salt is refused' },
];

/** OpenAPI 3.1 from the same zod schemas the server validates with. */
export function buildOpenApi(endpoints: RegisteredEndpoint[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const requestBody =
      e.envelope === 'style2' && e.request
        ? { required: true, content: { 'application/json': { schema: { type: 'object', properties: { data: jsonSchema(e.request, 'input'), clientInfo: { type: 'object', properties: { clientType: { type: 'string', enum: ['Web_PC', 'Web_H5'] }, clientVersion: { type: 'string' }, language: { type: 'string' } } } }, required: ['data'] } } } }
        : e.envelope === 'signed'
          ? { required: true, description: 'call style 3 (README "Call style 3"): key = encrypted {data, clientInfo, style, secret}, sign = HMAC over date, salt and key', content: { 'application/json': { schema: SIGNED_BODY } } }
        : e.envelope === 'code-data' && e.request
          ? { required: true, content: { 'application/json': { schema: { type: 'object', properties: { data: jsonSchema(e.request, 'input') } } } } }
          : e.bodyNote
            ? { description: e.bodyNote, content: { 'multipart/form-data': { schema: { type: 'object' } } } }
            : undefined;
    if (requestBody && e.formStyle) {
      // call style 1: the call's fields with ticket and clientType, answered {code, msg, data}
      (requestBody.content as Record<string, unknown>)['application/x-www-form-urlencoded'] = { schema: { type: 'object', properties: { ...((jsonSchema(e.request, 'input').properties as object) ?? {}), ticket: { type: 'string' }, clientType: { type: 'string' }, language: { type: 'string' } } } };
    }
    const resp =
      e.envelope === 'signed'
        ? { ...SIGNED_BODY, description: 'key decrypts to {rtnCode, bizData, msg}; failures of the signature itself come in clear as {rtnCode, bizData, msg}' }
        : e.envelope === 'code-data'
        ? { type: 'object', properties: { code: { type: 'string' }, data: jsonSchema(e.response, 'output'), msg: { type: 'string' } } }
        : { type: 'object', properties: { rtnCode: { type: 'string', description: "'0000000' success, '101' not signed in" }, bizData: jsonSchema(e.response, 'output'), msg: { type: 'string' } } };
    paths[e.path] = {
      ...paths[e.path],
      [e.method]: {
        summary: e.summary,
        tags: [e.tag],
        security: e.auth === 'none' ? [] : e.auth === 'optional' ? [{}, { utoken: [] }, { ticket: [] }] : [{ utoken: [] }, { ticket: [] }],
        ...(e.envelope === 'signed' ? { parameters: SIGNED_HEADER_PARAMS } : {}),
        ...(requestBody ? { requestBody } : {}),
        responses: { 200: { description: 'envelope', content: { 'application/json': { schema: resp } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info,
    components: {
      securitySchemes: {
        utoken: { type: 'apiKey', in: 'query', name: 'utoken', description: 'session token (POST /user/v5/sysuser/clientToken)' },
        ticket: { type: 'apiKey', in: 'cookie', name: 'ticket', description: 'session ticket set after sign-in' },
      },
    },
    paths,
  };
}

export async function openApiRoutes(app: FastifyInstance) {
  app.get('/api/docs', async () => buildOpenApi(app.apiRegistry, { title: 'CADCloud API', version: '0.1.0' }));
  app.get('/api/docs/ui', async (_req, reply) => {
    const rows = app.apiRegistry
      .map((e) => `<tr><td>${e.method.toUpperCase()}</td><td><code>${e.path}</code></td><td>${e.tag}</td><td>${e.summary}</td><td>${e.auth}</td></tr>`)
      .join('');
    reply.type('text/html').send(`<!doctype html><meta charset="utf-8"><title>CADCloud API</title><style>body{font:14px system-ui;margin:2em}td{padding:4px 8px;border-bottom:1px solid #eee}</style><h1>CADCloud API</h1><p>Machine-readable: <a href="/api/docs">/api/docs</a> (OpenAPI 3.1)</p><table>${rows}</table>`);
  });
}
