import { z } from 'zod';
import { defineConfig, envInt } from '../config/config.ts';
import { parseProxyEntry } from './proxy-trust.ts';

/** The HTTP servers (API + web app, login site): whom to believe about the client, and how long a client may take. */
export const httpConfig = defineConfig({
  trustedProxies: {
    env: 'TRUSTED_PROXIES',
    schema: z
      .string()
      .optional()
      .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean))
      .superRefine((entries, ctx) => {
        for (const e of entries) if (!parseProxyEntry(e)) ctx.addIssue({ code: 'custom', message: `"${e}" is not an IP address, a CIDR block, loopback or private` });
      }),
    doc: 'comma-separated addresses or CIDR blocks of the reverse proxies whose X-Forwarded-For/-Proto/-Host are believed (loopback and private name the usual ranges); default none',
  },
  headersTimeoutMs: { env: 'HTTP_HEADERS_TIMEOUT_MS', schema: envInt(20_000, 1000), doc: 'a client must send the request line and headers within this; a connection that sends nothing or half a header is closed' },
  bodyIdleTimeoutMs: { env: 'HTTP_BODY_IDLE_TIMEOUT_MS', schema: envInt(30_000, 1000), doc: 'a request body (an upload too) that makes no progress for this long is answered 408 and its connection closed; an upload that keeps sending is never cut' },
  requestTimeoutMs: { env: 'HTTP_REQUEST_TIMEOUT_MS', schema: envInt(3_600_000, 10_000), doc: 'the longest a client may take to send one whole request, uploads included' },
  keepAliveTimeoutMs: { env: 'HTTP_KEEP_ALIVE_TIMEOUT_MS', schema: envInt(10_000, 1000), doc: 'an idle connection between requests is closed after this (behind a load balancer that reuses connections: above its idle timeout)' },
});
