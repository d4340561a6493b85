import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash, type ScryptOptions } from 'node:crypto';
import type { SsoDb } from './sso-db.ts';
import { normalizeEmail } from './attempt-limiter.ts';

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

/** The oidc-provider records that stand for a signed-in account (its sessions, grants, codes and tokens). */
const SIGNED_IN_MODELS = ['Session', 'Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken', 'Interaction'];

export interface AccountsHooks {
  /**
   * After a password was reset or changed and the login site's own sessions ended: end every session the
   * account has elsewhere (the product's tickets, `utoken`s and client tokens).
   */
  onPasswordChanged?(accountId: string): Promise<void>;
}

export function createAccountsService(db: SsoDb, hooks: AccountsHooks = {}) {
  const normalize = normalizeEmail;
  const sha256 = (token: string) => createHash('sha256').update(token ?? '').digest('hex');

  function checkNewAccount(o: { email: string; password: string }) {
    if (!EMAIL_RE.test(normalize(o.email))) throw new AccountError('email.invalid');
    if ((o.password ?? '').length < MIN_PASSWORD) throw new AccountError('password.weak');
  }

  async function findByEmail(email: string) {
    return db.selectFrom('sso_accounts').select(['id', 'email', 'name']).where('email', '=', normalize(email)).executeTakeFirst();
  }

  async function insertAccount(o: { email: string; name?: string; passwordHash: string }) {
    const email = normalize(o.email);
    if (await findByEmail(email)) throw new AccountError('email.taken');
    const account = { id: randomBytes(12).toString('base64url'), email, name: (o.name ?? '').trim() || email.split('@')[0], password_hash: o.passwordHash, created_at: Date.now() };
    try {
      await db.insertInto('sso_accounts').values(account).execute();
    } catch {
      throw new AccountError('email.taken');
    }
    return { id: account.id, email: account.email, name: account.name };
  }

  async function verifyPassword(emailIn: string, password: string) {
    const a = await db.selectFrom('sso_accounts').selectAll().where('email', '=', normalize(emailIn)).executeTakeFirst();
    if (!a) {
      dummyHash ??= hashPassword('not-a-real-password');
      await verifyPasswordHash(password ?? '', await dummyHash);
      return null;
    }
    return (await verifyPasswordHash(password ?? '', a.password_hash)) ? { id: a.id, email: a.email, name: a.name } : null;
  }

  /** Every way the account is signed in ends: the login site's records here, the product's through the hook. */
  async function endSessions(accountId: string) {
    // `_` of a base64url id is a LIKE wildcard: the LIKE narrows, the parsed payload decides
    const rows = await db.selectFrom('oidc_payloads').select(['type', 'id', 'payload', 'grant_id']).where('type', 'in', SIGNED_IN_MODELS).where('payload', 'like', `%${accountId}%`).execute();
    const grants = new Set<string>();
    for (const r of rows) {
      const p = JSON.parse(r.payload) as { accountId?: string; session?: { accountId?: string }; result?: { login?: { accountId?: string } } };
      if (p.accountId !== accountId && p.session?.accountId !== accountId && p.result?.login?.accountId !== accountId) continue;
      await db.deleteFrom('oidc_payloads').where('type', '=', r.type).where('id', '=', r.id).execute();
      if (r.grant_id) grants.add(r.grant_id);
      if (r.type === 'Grant') grants.add(r.id);
    }
    // tokens issued under those grants go with them
    if (grants.size) await db.deleteFrom('oidc_payloads').where('grant_id', 'in', [...grants]).execute();
    await hooks.onPasswordChanged?.(accountId);
  }

  async function setPassword(accountId: string, password: string) {
    if ((password ?? '').length < MIN_PASSWORD) throw new AccountError('password.weak');
    await db.updateTable('sso_accounts').set({ password_hash: await hashPassword(password) }).where('id', '=', accountId).execute();
    await endSessions(accountId);
  }

  return {
    normalizeEmail: normalize,
    /** The e-mail and password rules of a new account, checked without touching the accounts. */
    checkNewAccount,
    async createAccount(o: { email: string; password: string; name?: string }) {
      checkNewAccount(o);
      return insertAccount({ email: o.email, name: o.name, passwordHash: await hashPassword(o.password) });
    },
    /** An account whose password was hashed earlier (a confirmed registration). */
    createAccountWithHash: insertAccount,
    verifyPassword,
    async findById(id: string) {
      return db.selectFrom('sso_accounts').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst();
    },
    findByEmail,
    async listAccounts() {
      return db.selectFrom('sso_accounts').select(['id', 'email', 'name', 'created_at']).orderBy('created_at').execute();
    },
    /** A single-use reset token valid one hour; only its hash is stored. */
    async createResetToken(accountId: string) {
      const token = randomBytes(24).toString('base64url');
      await db.insertInto('sso_reset_tokens').values({ token_hash: sha256(token), account_id: accountId, expires_at: Date.now() + 3600_000, used_at: null }).execute();
      return token;
    },
    /** Sets the password a reset link's holder chose; every session of the account ends. */
    async resetPassword(token: string, password: string) {
      if ((password ?? '').length < MIN_PASSWORD) throw new AccountError('password.weak');
      const hash = sha256(token);
      // mark used first, atomically: the same link cannot reset twice even when clicked concurrently
      const r = await db.updateTable('sso_reset_tokens').set({ used_at: Date.now() }).where('token_hash', '=', hash).where('used_at', 'is', null).where('expires_at', '>', Date.now()).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new AccountError('reset.invalid');
      const t = await db.selectFrom('sso_reset_tokens').select('account_id').where('token_hash', '=', hash).executeTakeFirstOrThrow();
      await setPassword(t.account_id, password);
    },
    /** The owner changes the password, proving the current one; every session of the account ends. */
    async changePassword(email: string, current: string, password: string) {
      if ((password ?? '').length < MIN_PASSWORD) throw new AccountError('password.weak');
      const account = await verifyPassword(email, current);
      if (!account) throw new AccountError('credentials.wrong');
      await setPassword(account.id, password);
      return account;
    },
    /** The operator sets a password (admin CLI); every session of the account ends. */
    setPassword,
    async isResetTokenValid(token: string) {
      return !!(await db.selectFrom('sso_reset_tokens').select('token_hash').where('token_hash', '=', sha256(token)).where('used_at', 'is', null).where('expires_at', '>', Date.now()).executeTakeFirst());
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
