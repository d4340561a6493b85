import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    securityHeaders: SecurityHeaders;
  }
}

export interface SecurityHeaders {
  /** The inline scripts the served index.html carries, allowed by their hashes (web-static.ts). */
  allowInlineScripts(sources: string[]): void;
  /** Another origin the app may load a script from (the operator's AI assistant, modules/common). */
  allowScriptOrigin(origin: string): void;
  /** The Content-Security-Policy every answer carries now. */
  policy(): string;
}

/** The bodies of the inline `<script>` elements of an HTML page (those without src). */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]);
}

/**
 * Every answer of the product says what a browser may do with it: the single-page app runs only its own code
 * (its two inline boot scripts by hash), talks only to its own origin, is never framed, and nothing is sniffed
 * into another type. What the app needs, checked in the browser tests: antd's CSS-in-JS and React's style
 * attributes (inline styles), thumbnails, QR codes and downloads as data:/blob: URLs, WebGL (no directive),
 * the bundled fonts.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  let scriptHashes: string[] = [];
  const scriptOrigins: string[] = [];
  const policy = () =>
    [
      "default-src 'self'",
      `script-src 'self'${scriptOrigins.map((o) => ` ${o}`).join('')}${scriptHashes.map((h) => ` '${h}'`).join('')}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      `connect-src 'self'${scriptOrigins.map((o) => ` ${o}`).join('')}`,
      "worker-src 'self' blob:",
      "media-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ');
  let header = policy();
  const api: SecurityHeaders = {
    allowInlineScripts(sources) {
      scriptHashes = sources.map((s) => `sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}`);
      header = policy();
    },
    allowScriptOrigin(origin) {
      if (!scriptOrigins.includes(origin)) scriptOrigins.push(origin);
      header = policy();
    },
    policy: () => header,
  };
  app.decorate('securityHeaders', api);
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('content-security-policy', header);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    // share and drawing addresses are bearer paths: never handed to another site
    reply.header('referrer-policy', 'same-origin');
    return payload;
  });
}
