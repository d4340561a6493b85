/** Test helper: HTTP over a raw socket, for requests no HTTP client would send (malformed, slow, half-sent). */
import net from 'node:net';

export interface RawExchange {
  /** the status of the first answer, 0 when none came */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** whether the server closed the connection before `waitMs` was over */
  closed: boolean;
  /** ms from the first byte sent until the answer (or the close, or the end of waiting) */
  ms: number;
}

/**
 * Sends `parts` (a number waits that many ms before the next part), then waits up to `waitMs` for the server
 * to answer and close. Resolves early once the server closed, or with `untilAnswer` once a whole answer came.
 */
export function rawExchange(port: number, parts: (string | Buffer | number)[], o: { waitMs: number; untilAnswer?: boolean }): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const start = Date.now();
    let data = Buffer.alloc(0);
    let answeredAt = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = data.toString('utf8');
      const head = text.split('\r\n\r\n')[0] ?? '';
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body: text.slice(head.length + 4), closed, ms: (answeredAt || Date.now()) - start });
    };
    const timer = setTimeout(() => finish(false), o.waitMs);
    socket.on('data', (d) => {
      if (!answeredAt) answeredAt = Date.now();
      data = Buffer.concat([data, d]);
      const end = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(data.subarray(0, end).toString('latin1'))?.[1];
      if (o.untilAnswer && end >= 0 && length !== undefined && data.length >= end + 4 + Number(length)) finish(false);
    });
    socket.on('close', () => finish(true));
    // the server may close while we still send: that is an answer too, not a test failure
    socket.on('error', () => undefined);
    void (async () => {
      for (const p of parts) {
        if (done) return;
        if (typeof p === 'number') await new Promise((r) => setTimeout(r, p));
        else socket.write(p);
      }
    })();
  });
}

/** A multipart body: `parts` are raw part texts (headers and content) joined with the boundary. */
export function multipartBody(boundary: string, parts: (string | Buffer)[], close = true): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) out.push(Buffer.from(`--${boundary}\r\n`), Buffer.isBuffer(p) ? p : Buffer.from(p), Buffer.from('\r\n'));
  if (close) out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}
