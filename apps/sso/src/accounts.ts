import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash, type ScryptOptions } from 'node:crypto';
import type { SsoDb } from './sso-db.ts';

const scrypt = (pw: string, salt: Buffer, len: number, o: ScryptOptions) =>
  new Promise<Buffer>((res, rej) => scryptCb(pw, salt, len, o, (e, k) => (e ? rej(e) : res(k))));

// scrypt N=2^15, r=8, p=1: ~50 ms here; parameters are stored with the hash so they can be raised later
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const MAXMEM = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, 32, { ...PARAMS, maxmem: MAXMEM });
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPasswordHash(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt') return false;
  const want = Buffer.from(key, 'base64url');
  const got = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), want.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM });
  return timingSafeEqual(got, want);
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD = 8;

export class AccountError extends Error {
  constructor(readonly code: 'email.invalid' | 'email.taken' | 'password.weak' | 'credentials.wrong' | 'reset.invalid') {
    super(code);
  }
}

// a fixed hash to compare against for unknown e-mails, so response time does not reveal which accounts exist
let dummyHash: Promise<string> | null = null;

export function createAccountsService(db: SsoDb) {
  const normalize = (email: string) => email.trim().toLowerCase();
  return {
    async createAccount(o: { email: string; password: string; name?: string }) {
      const email = normalize(o.email);
      if (!EMAIL_RE.test(email)) throw new AccountError('email.invalid');
      if ((o.password ?? '').length < MIN_PASSWORD) throw new AccountError('password.weak');
      if (await db.selectFrom('sso_accounts').select('id').where('email', '=', email).executeTakeFirst()) throw new AccountError('email.taken');
      const account = { id: randomBytes(12).toString('base64url'), email, name: (o.name ?? '').trim() || email.split('@')[0], password_hash: await hashPassword(o.password), created_at: Date.now() };
      try {
        await db.insertInto('sso_accounts').values(account).execute();
      } catch {
        throw new AccountError('email.taken');
      }
      return { id: account.id, email: account.email, name: account.name };
    },
    async verifyPassword(emailIn: string, password: string) {
      const email = normalize(emailIn ?? '');
      const a = await db.selectFrom('sso_accounts').selectAll().where('email', '=', email).executeTakeFirst();
      if (!a) {
        dummyHash ??= hashPassword('not-a-real-password');
        await verifyPasswordHash(password ?? '', await dummyHash);
        return null;
      }
      return (await verifyPasswordHash(password ?? '', a.password_hash)) ? { id: a.id, email: a.email, name: a.name } : null;
    },
    async findById(id: string) {
      return db.selectFrom('sso_accounts').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst();
    },
    async findByEmail(email: string) {
      return db.selectFrom('sso_accounts').select(['id', 'email', 'name']).where('email', '=', normalize(email)).executeTakeFirst();
    },
    async listAccounts() {
      return db.selectFrom('sso_accounts').select(['id', 'email', 'name', 'created_at']).orderBy('created_at').execute();
    },
    /** A single-use reset token valid one hour; only its hash is stored. */
    async createResetToken(accountId: string) {
      const token = randomBytes(24).toString('base64url');
      await db.insertInto('sso_reset_tokens').values({ token_hash: createHash('sha256').update(token).digest('hex'), account_id: accountId, expires_at: Date.now() + 3600_000, used_at: null }).execute();
      return token;
    },
    async resetPassword(token: string, password: string) {
      if ((password ?? '').length < MIN_PASSWORD) throw new AccountError('password.weak');
      const hash = createHash('sha256').update(token ?? '').digest('hex');
      // mark used first, atomically: the same link cannot reset twice even when clicked concurrently
      const r = await db.updateTable('sso_reset_tokens').set({ used_at: Date.now() }).where('token_hash', '=', hash).where('used_at', 'is', null).where('expires_at', '>', Date.now()).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new AccountError('reset.invalid');
      const t = await db.selectFrom('sso_reset_tokens').select('account_id').where('token_hash', '=', hash).executeTakeFirstOrThrow();
      await db.updateTable('sso_accounts').set({ password_hash: await hashPassword(password) }).where('id', '=', t.account_id).execute();
    },
    async isResetTokenValid(token: string) {
      const hash = createHash('sha256').update(token ?? '').digest('hex');
      return !!(await db.selectFrom('sso_reset_tokens').select('token_hash').where('token_hash', '=', hash).where('used_at', 'is', null).where('expires_at', '>', Date.now()).executeTakeFirst());
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
