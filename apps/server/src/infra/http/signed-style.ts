import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { deriveSaltKeys, newSessionSecret, openRequest, SALT_PATTERN, SIGNED_HEADERS, SIGNED_MAX_SKEW_MS, SIGNED_REQUEST_ID, SignedCallError } from '@cadcloud/contracts/signed-call';
import type { Database } from '../db/schema.ts';
import { persistentSecret } from '../storage/storage.factory.ts';
import { appError } from './app-error.ts';

/**
 * Server side of call styles 4 and 3 (scheme: packages/contracts/src/signed-call.ts, README "Call style 3").
 * The session's secret is kept in the database, encrypted with the installation's 'call-secret' (synced across
 * processes by infra/secrets.ts), so a database dump alone does not let anyone sign requests. Replays are
 * remembered in the database too: every server process refuses a (date, salt) another one has answered.
 */
export function createCallSecrets(deps: { db: Kysely<Database>; config: { dataDir: string; sessionTtlDays: number } }) {
  const { db } = deps;
  const atRest = createHash('sha256').update(persistentSecret(deps.config.dataDir, 'call-secret')).update('call-secrets-at-rest').digest();
  const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

  function encrypt(secret: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', atRest, iv);
    const ct = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64url');
  }
  function decrypt(stored: string): string | null {
    try {
      const b = Buffer.from(stored, 'base64url');
      const d = createDecipheriv('aes-256-gcm', atRest, b.subarray(0, 12));
      d.setAuthTag(b.subarray(12, 28));
      return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
    } catch {
      // written under another installation key: as if there were none
      return null;
    }
  }

  async function secretOf(ticket: string): Promise<string | null> {
    const row = await db.selectFrom('call_secrets').select('secret_enc').where('ticket_hash', '=', hashTicket(ticket)).where('expires_at', '>', Date.now()).executeTakeFirst();
    return row ? decrypt(row.secret_enc) : null;
  }

  return {
    secretOf,
    /** getRsaKey: the session's secret, made on first ask; the same one after, so every tab of the session agrees. */
    async issue(ticket: string): Promise<string> {
      const existing = await secretOf(ticket);
      if (existing) return existing;
      const now = Date.now();
      await db.deleteFrom('call_secrets').where('expires_at', '<=', now).execute();
      await db
        .insertInto('call_secrets')
        .values({ ticket_hash: hashTicket(ticket), secret_enc: encrypt(newSessionSecret()), created_at: now, expires_at: now + deps.config.sessionTtlDays * 86_400_000 })
        // two tabs asking at once: the first write wins, both answer what is stored
        .onConflict((oc) => oc.column('ticket_hash').doNothing())
        .execute();
      const stored = await secretOf(ticket);
      if (!stored) throw new Error('call secret not stored');
      return stored;
    },
    /** false when this (session, date, salt) was seen before: the request is a replay. */
    async firstUse(ticket: string, date: string, salt: string): Promise<boolean> {
      const now = Date.now();
      const nonce = createHash('sha256').update(`${hashTicket(ticket)}\n${date}\n${salt}`).digest('hex');
      // a request is acceptable ±SIGNED_MAX_SKEW_MS around its date: remember it until the window has passed for sure
      const r = await db.insertInto('signed_nonces').values({ nonce, expires_at: now + 2 * SIGNED_MAX_SKEW_MS }).onConflict((oc) => oc.column('nonce').doNothing()).executeTakeFirst();
      if (Math.random() < 0.02) await db.deleteFrom('signed_nonces').where('expires_at', '<', now).execute();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}

export type CallSecrets = ReturnType<typeof createCallSecrets>;

export interface OpenedSignedRequest<T> {
  payload: T;
  keys: Awaited<ReturnType<typeof deriveSaltKeys>>;
  date: string;
  salt: string;
}

/**
 * Checks one style-3 request and returns its decrypted payload. Order matters: the headers and the date are
 * checked before any crypto, the signature before decryption, and the replay cache only for a request whose
 * signature is good (a forger cannot burn someone else's nonces).
 */
export async function openSignedRequest<T>(req: FastifyRequest, secrets: CallSecrets): Promise<OpenedSignedRequest<T>> {
  if (!req.user || !req.ticket) throw appError('sign.notSignedIn');
  const h = (name: string) => String(req.headers[name] ?? '');
  const date = h(SIGNED_HEADERS.date);
  const salt = h(SIGNED_HEADERS.salt);
  const body = req.body as { sign?: unknown; key?: unknown } | undefined;
  if (h(SIGNED_HEADERS.requestId) !== SIGNED_REQUEST_ID || !SALT_PATTERN.test(salt) || !/^\d{13}$/.test(date) || typeof body?.sign !== 'string' || typeof body?.key !== 'string') throw appError('request.malformed');
  if (Math.abs(Date.now() - Number(date)) > SIGNED_MAX_SKEW_MS) throw appError('sign.expired');
  const secret = await secrets.secretOf(req.ticket);
  if (!secret) throw appError('sign.noSecret');
  const keys = await deriveSaltKeys(secret, salt);
  let payload: T;
  try {
    payload = await openRequest<T>(keys, date, salt, { sign: body.sign, key: body.key });
  } catch (e) {
    if (e instanceof SignedCallError) throw appError(e.reason === 'sign' ? 'sign.failed' : 'sign.badKey');
    throw e;
  }
  if (!(await secrets.firstUse(req.ticket, date, salt))) throw appError('sign.replayed');
  return { payload, keys, date, salt };
}
