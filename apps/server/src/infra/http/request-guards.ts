import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, type ErrorCode } from '@cadcloud/contracts';
import { serverMessage } from '@cadcloud/i18n';
import { requestLanguage } from './error-handler.ts';

interface Watched {
  req: FastifyRequest;
  reply: FastifyReply;
  /** bytes the socket had read, and bytes waiting in the request, at the last check that saw them change */
  bytesRead: number;
  waiting: number;
  since: number;
}

const hasBody = (req: FastifyRequest) => (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined;

/**
 * What Node's own timeouts cannot do (they bound the headers and the whole request, see app.ts): a request body
 * that makes no progress for `bodyIdleTimeoutMs` is answered and its connection closed. Progress is any byte
 * arriving or being taken by the server, so an upload that keeps sending is never cut however long it takes.
 * A stall with bytes waiting is the server's side not taking them (a body its parser cannot make sense of):
 * 400; a stall with nothing waiting is the client's: 408.
 * Also: an error answered before the whole body arrived closes the connection, so nobody waits for the rest.
 */
export function registerRequestGuards(app: FastifyInstance, o: { bodyIdleTimeoutMs: number }) {
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | null = null;
  const tickMs = Math.max(100, Math.min(1000, Math.floor(o.bodyIdleTimeoutMs / 5)));

  function answer(w: Watched, code: ErrorCode, status: number) {
    const lang = requestLanguage(w.req);
    w.reply
      .code(status)
      .header('connection', 'close')
      .send({ rtnCode: ERRORS[code].rtnCode, bizData: { code, detail: status === 408 ? 'the request body stopped arriving' : 'the request body could not be read' }, msg: serverMessage(ERRORS[code].key, lang) });
  }

  function check() {
    const now = Date.now();
    for (const w of watched) {
      const raw = w.req.raw;
      if (raw.complete || raw.destroyed || w.reply.sent) {
        watched.delete(w);
        continue;
      }
      const bytesRead = raw.socket?.bytesRead ?? 0;
      const waiting = raw.readableLength;
      if (bytesRead !== w.bytesRead || waiting !== w.waiting) {
        Object.assign(w, { bytesRead, waiting, since: now });
        continue;
      }
      if (now - w.since < o.bodyIdleTimeoutMs) continue;
      watched.delete(w);
      if (waiting > 0) answer(w, 'request.malformed', 400);
      else answer(w, 'request.timeout', 408);
    }
    if (!watched.size && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  app.addHook('onRequest', async (req, reply) => {
    if (!hasBody(req)) return;
    watched.add({ req, reply, bytesRead: req.raw.socket?.bytesRead ?? 0, waiting: req.raw.readableLength, since: Date.now() });
    if (!timer) {
      timer = setInterval(check, tickMs);
      timer.unref();
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const raw = req.raw;
    if (reply.statusCode < 400 || raw.complete) return payload;
    reply.header('connection', 'close');
    // Node forgets a request once its answer is out: when the socket then closes, nothing tells whoever still
    // reads the body (the multipart parser, an upload's temp file) that no more is coming. Tell them then, not
    // earlier: closing a socket with unread bytes resets it, and the client could lose the answer.
    raw.socket?.once('close', () => {
      if (!raw.complete && !raw.destroyed) raw.destroy();
    });
    return payload;
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
  });
}
