/**
 * Operator CLI: `npm run admin -- <command>`. Uses the same config (DATA_DIR, DATABASE_URL …) as the server.
 *   user create --email E --password P [--name N]   user list   user password --email E --password P
 *   user quota --email E --bytes N|5GB               user vip --email E --type N | --plan CODE [--periods N]
 *   plan list                                        plan set CODE [--price-usd X] [--price-cny X] [--days N] …
 *   order list [--user EMAIL] [--status N] [--limit N]
 *   company create --name N --admin EMAIL [--tax-id T]   company invite --company ID --email E [--may-invoice]   company list
 *   invoice list [--status N]   invoice issue ID --pdf FILE   invoice fail ID --reason R   invoice void ID
 *   feedback list [--open] [--limit N]               feedback reply <id> --text T
 *   user disable|enable --email E                    user reset-password --email E [--password P]
 *   storage gc [--dry-run]                           jobs list [--state S] [--limit N]   jobs retry|cancel <id>
 *   stats                                            mail outbox [--limit N]
 *   backup <dir> [--objects]                         restore <dir> [--force]
 *   code create --plan CODE --count N [--periods P] [--expires DAYS]   code void CODE   code list [--batch B]
 *   ad set --slot S --image URL --link URL --title T                  ad list          ad remove --slot S
 */
import { parseArgs } from 'node:util';
import { mkdirSync, readFileSync } from 'node:fs';
import { createAccountsService, AccountError, type SsoDb } from '@cadcloud/sso';
import { formatSize } from '@cadcloud/contracts';
import { loadConfig, ConfigError } from '../infra/config/index.ts';
import { envBytes } from '../infra/config/config.ts';
import { createDatabase, migrateToLatest, listOutbox, createMailer } from '../infra/index.ts';
import { createInvoicesService, InvoiceStateError } from '../modules/invoices/invoices.service.ts';
import { createUsersService } from '../modules/users/users.service.ts';
import { createQuotaService } from '../modules/quota/quota.service.ts';
import { createMembershipService } from '../modules/membership/membership.service.ts';
import { createOrdersService } from '../modules/orders/orders.service.ts';
import { createFeedbackService } from '../modules/feedback/feedback.service.ts';
import { CURRENCIES } from '@cadcloud/contracts';
import { createSessionsService } from '../modules/users/sessions.service.ts';
import { randomBytes } from 'node:crypto';
import { createStorage } from '../infra/storage/storage.factory.ts';
import { createQueue } from '../infra/queue/queue.factory.ts';
import { JOB_STATES, type JobQueue, type JobState } from '../infra/queue/queue.types.ts';
import { collectGarbage } from './storage-gc.ts';
import { CommerceUsageError, runCommerceAdmin } from './commerce.cli.ts';
import { instanceStats } from './stats.ts';
import { backupInstance, restoreInstance, BackupError } from './backup.ts';

const USAGE = `usage: npm run admin -- <command>
  user create --email E --password P [--name N]
  user list
  user password --email E --password P   (ends every session of the account)
  user quota --email E --bytes N|500MB|5GB
  user vip --email E --plan CODE [--periods N] [--ref R]
                              (grants the plan's period, stacked after a running one of the same kind; the same
                               --ref twice grants once)
  user vip --email E --type N (1: ML1 premium, 2: ML3 super membership; 0 ends what the operator granted)
  plan list                   (every plan's current version, prices in every currency)
  plan set CODE [--price-usd X] [--price-cny X] [--price-krw X] [--price-eur X] [--days N] [--storage 5GB]
              [--expiry-warning true|false]
                              (a new version; entitlements granted before keep theirs)
  order list [--user EMAIL] [--status N] [--limit N]
                              (newest first: status 0 unpaid, 1 paid, 2 cancelled, 3 service expired, 4 failed,
                               5 refunded, 6 confirming, 7 timed out; amounts in the currency's units)
  company create --name N --admin EMAIL [--tax-id T]
                              (the admin is mailed an accept link, or joins at once when that account exists)
  company invite --company ID --email E [--may-invoice]
                              (mails a signed accept link; --may-invoice lets the member request invoices)
  company list
  invoice list [--status N]   (newest first: 1 invoiced, 2 invoicing, 3 failed, 4 re-issuing, 5 voided)
  invoice issue ID --pdf FILE (stores the PDF, status 1, mails the requester; from 2 invoicing or 4 re-issuing)
  invoice fail ID --reason R  (status 3, mails the requester the reason)
  invoice void ID             (status 5; its orders may be invoiced again; mails the requester)
  feedback list [--open] [--limit N]
                              (newest first; --open: only those not answered yet)
  feedback reply <id> --text T
                              (mails T to the sender in their language, through SMTP or the outbox, and marks it answered)
  user disable --email E      (ends every session; sign-in refused until enabled)
  user enable --email E
  user reset-password --email E [--password P]   (without --password: a random one, printed once; ends every session)
  storage gc [--dry-run]      (blobs no file refers to; --dry-run only lists them)
  jobs list [--state waiting|active|completed|failed] [--limit N]
  jobs retry <id>             jobs cancel <id>
  stats
  mail outbox [--limit N]
  backup <dir> [--objects]    (a consistent snapshot while the server runs: rows, the objects they name, secrets;
                               on S3 the object list only, the bytes too with --objects)
  restore <dir> [--force]     (into an empty database and storage; --force replaces what is there)
  code create --plan CODE --count N [--periods P] [--expires DAYS] [--order ORDER_ID]
                              (a batch of exchange codes, printed this once: only their hashes are stored)
  code void CODE              (an unused code can no longer be redeemed)
  code list [--batch B]       (the batches; with --batch its codes, masked, with their status)
  ad set --slot S --image URL --link URL --title T   (shown to users whose rights do not remove ads)
  ad list                     ad remove --slot S`;

class UsageError extends Error {}

export async function runAdmin(argv: string[], env: Record<string, string | undefined> = process.env): Promise<unknown> {
  const [area, action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { user: { type: 'string' }, status: { type: 'string' }, plan: { type: 'string' }, periods: { type: 'string' }, ref: { type: 'string' }, 'price-usd': { type: 'string' }, 'price-cny': { type: 'string' }, 'price-krw': { type: 'string' }, 'price-eur': { type: 'string' }, days: { type: 'string' }, storage: { type: 'string' }, 'expiry-warning': { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, bytes: { type: 'string' }, type: { type: 'string' }, limit: { type: 'string' }, state: { type: 'string' }, 'dry-run': { type: 'boolean' }, objects: { type: 'boolean' }, force: { type: 'boolean' }, count: { type: 'string' }, expires: { type: 'string' }, batch: { type: 'string' }, order: { type: 'string' }, slot: { type: 'string' }, image: { type: 'string' }, link: { type: 'string' }, title: { type: 'string' }, admin: { type: 'string' }, company: { type: 'string' }, 'may-invoice': { type: 'boolean' }, 'tax-id': { type: 'string' }, pdf: { type: 'string' }, reason: { type: 'string' }, open: { type: 'boolean' }, text: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const config = loadConfig(env);
  mkdirSync(config.dataDir, { recursive: true });
  const db = createDatabase(config.databaseUrl);
  try {
    // a restore migrates by itself: first to the backup's schema, then on
    if (area !== 'restore') await migrateToLatest(db);
    const sessions = createSessionsService({ db, config });
    // a new password ends the account's sessions on the login site and in the product
    const accounts = createAccountsService(db as unknown as SsoDb, { onPasswordChanged: (accountId) => sessions.endAllSessionsOfAccount(accountId) });
    const users = createUsersService({ db, config });
    const need = (v: string | undefined, flag: string) => {
      if (!v) throw new UsageError(`missing --${flag}`);
      return v;
    };
    const userByEmail = async (email: string) => {
      const u = await users.repo.findByEmail(email);
      if (!u) throw new UsageError(`no user with e-mail ${email}`);
      return u;
    };
    const membership = createMembershipService({ db, config });
    // vipType and the space as the product sees them: from the active entitlements (modules/membership)
    const show = async (u: Awaited<ReturnType<typeof userByEmail>>) => {
      const r = await membership.rightsOf(u.id);
      return { id: u.id, email: u.email, name: u.name, vipType: r.vipType, goodsCodes: r.vipInfo.goodsCodes, membershipEnds: r.vipInfo.serverEndTimeStamp ? new Date(r.vipInfo.serverEndTimeStamp).toISOString() : null, storage: `${formatSize(u.storage_used)} / ${formatSize(r.storageBytes)}`, frozen: u.freeze === 1, disabled: u.disabled_at != null };
    };
    /** the job queue of this configuration (its workers are not started: the CLI only looks and edits) */
    const withQueue = async <T>(fn: (q: JobQueue) => Promise<T>): Promise<T> => {
      const q = createQueue(config, db);
      try {
        return await fn(q);
      } finally {
        await q.stop();
      }
    };
    const jobId = () => positionals[0] ?? (() => { throw new UsageError('missing job id'); })();

    if (area === 'user' && action === 'create') {
      const account = await accounts.createAccount({ email: need(values.email, 'email'), password: need(values.password, 'password'), name: values.name });
      return await show(await users.findOrCreateBySso({ sub: account.id, email: account.email, name: account.name }));
    }
    if (area === 'user' && action === 'list') return await Promise.all((await users.repo.list()).map(show));
    if (area === 'user' && action === 'password') {
      const account = await accounts.findByEmail(need(values.email, 'email'));
      if (!account) throw new UsageError(`no account with e-mail ${values.email}`);
      await accounts.setPassword(account.id, need(values.password, 'password'));
      return { email: account.email, password: 'changed', sessions: 'ended' };
    }
    if (area === 'user' && action === 'quota') {
      const parsed = envBytes(0).safeParse(need(values.bytes, 'bytes'));
      if (!parsed.success) throw new UsageError('--bytes must be a size such as 524288000, 500MB or 5GB');
      const u = await userByEmail(need(values.email, 'email'));
      await createQuotaService({ db }).recalculate(u.id);
      return await show((await users.setQuota(u.id, parsed.data))!);
    }
    if (area === 'user' && action === 'vip') {
      const u = await userByEmail(need(values.email, 'email'));
      let plan = values.plan;
      if (!plan) {
        const type = Number(need(values.type, 'type (or --plan)'));
        if (![0, 1, 2].includes(type)) throw new UsageError('--type must be 0, 1 or 2');
        if (type === 0) {
          // the level set before entitlements existed goes too
          await membership.endAdminGrants(u.id);
          return await show((await users.setVip(u.id, 0))!);
        }
        plan = type === 2 ? 'ML3' : 'ML1';
      }
      const periods = Number(values.periods ?? 1);
      if (!Number.isInteger(periods) || periods < 1 || periods > 100) throw new UsageError('--periods must be a whole number 1-100');
      await membership.ensureCatalog();
      if (!(await membership.catalog()).some((p) => p.code === plan)) throw new UsageError(`no plan ${plan} (npm run admin -- plan list)`);
      const r = await membership.grant(u.id, plan, { source: 'admin', sourceId: values.ref ?? randomBytes(12).toString('hex'), periods });
      return { ...(await show(u)), granted: r.granted, period: { plan: r.entitlement.plan_code, version: r.entitlement.plan_version, startsAt: new Date(r.entitlement.starts_at).toISOString(), endsAt: new Date(r.entitlement.ends_at).toISOString() } };
    }
    if (area === 'user' && (action === 'disable' || action === 'enable')) {
      return await show((await users.setDisabled((await userByEmail(need(values.email, 'email'))).id, action === 'disable'))!);
    }
    if (area === 'user' && action === 'reset-password') {
      const account = await accounts.findByEmail(need(values.email, 'email'));
      if (!account) throw new UsageError(`no account with e-mail ${values.email}`);
      const password = values.password ?? randomBytes(12).toString('base64url');
      await accounts.setPassword(account.id, password);
      return { email: account.email, password: values.password ? 'changed' : password, sessions: 'ended' };
    }
    if (area === 'plan' && action === 'list') return await membership.catalog();
    if (area === 'order' && action === 'list') {
      const status = values.status === undefined ? undefined : Number(values.status);
      if (status !== undefined && !(Number.isInteger(status) && status >= 0 && status <= 7)) throw new UsageError('--status must be an order status 0-7');
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number');
      const uid = values.user === undefined ? undefined : (await userByEmail(values.user)).id;
      const rows = await withQueue((queue) => createOrdersService({ db, config, queue }).adminList({ uid, status, limit }));
      return rows.map((o) => ({ orderId: o.id, uid: o.uid, plan: `${o.plan_code}@${o.plan_version}`, status: o.status, payWay: o.pay_way, provider: o.provider, amount: `${o.amount} ${o.currency}`, paid: o.pay_status === 1 ? `${o.payAmount} ${o.currency}` : null, orderType: o.order_type, createdAt: new Date(o.created_at).toISOString(), paidAt: o.paid_at ? new Date(o.paid_at).toISOString() : null, serviceEndsAt: o.service_ends_at ? new Date(o.service_ends_at).toISOString() : null, tradeId: o.provider_trade_id, note: o.note }));
    }
    if (area === 'company' || area === 'invoice') {
      const invoices = createInvoicesService({ db, config, mailer: createMailer(config, db), storage: createStorage(config) });
      const companies = invoices.companies;
      if (area === 'company' && action === 'create') return await companies.createCompany({ name: need(values.name, 'name'), adminEmail: need(values.admin, 'admin'), taxId: values['tax-id'] });
      if (area === 'company' && action === 'list') return await companies.list();
      if (area === 'company' && action === 'invite') {
        const companyId = need(values.company, 'company');
        if (!(await companies.repo.company(companyId))) throw new UsageError(`no company ${companyId} (npm run admin -- company list)`);
        return await companies.invite(companyId, need(values.email, 'email'), values['may-invoice'] === true);
      }
      const invoiceId = () => positionals[0] ?? (() => { throw new UsageError('missing invoice id'); })();
      if (area === 'invoice' && action === 'list') {
        const status = values.status === undefined ? undefined : Number(values.status);
        if (status !== undefined && !(Number.isInteger(status) && status >= 1 && status <= 5)) throw new UsageError('--status must be an invoice status 1-5');
        return await invoices.adminList({ status, limit: Number(values.limit ?? 100) });
      }
      if (area === 'invoice' && action === 'issue') {
        const id = invoiceId();
        return await invoices.issue(id, readFileSync(need(values.pdf, 'pdf')));
      }
      if (area === 'invoice' && action === 'fail') {
        const id = invoiceId();
        return await invoices.fail(id, need(values.reason, 'reason'));
      }
      if (area === 'invoice' && action === 'void') return await invoices.void(invoiceId());
    }
    if (area === 'feedback' && (action === 'list' || action === 'reply')) {
      const feedback = createFeedbackService({ db, config, storage: createStorage(config), mailer: createMailer(config, db) });
      const present = (f: NonNullable<Awaited<ReturnType<typeof feedback.reply>>>) => ({ id: f.id, email: f.email, uid: f.uid, content: f.content, pageUrl: f.page_url, screenshot: f.screenshot_key, ip: f.ip, language: f.language, createdAt: new Date(f.created_at).toISOString(), reply: f.reply, repliedAt: f.replied_at ? new Date(f.replied_at).toISOString() : null });
      if (action === 'list') {
        const limit = values.limit === undefined ? 100 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number');
        return (await feedback.list({ open: values.open === true, limit })).map(present);
      }
      const id = positionals[0];
      if (!id) throw new UsageError('missing the feedback id: npm run admin -- feedback reply <id> --text "…"');
      const text = need(values.text?.trim(), 'text');
      const answered = await feedback.reply(id, text);
      if (!answered) throw new UsageError(`no feedback ${id}`);
      return present(answered);
    }
    if (area === 'plan' && action === 'set') {
      const code = positionals[0];
      if (!code) throw new UsageError('missing the plan code: npm run admin -- plan set CODE --price-usd 5.99');
      if (!(await membership.catalog()).some((p) => p.code === code)) throw new UsageError(`no plan ${code} (npm run admin -- plan list)`);
      const change: Parameters<typeof membership.editPlan>[1] = {};
      const prices: Record<string, number> = {};
      for (const cur of CURRENCIES) {
        const v = values[`price-${cur.toLowerCase()}` as 'price-usd'];
        if (v === undefined) continue;
        if (!/^\d+(\.\d{1,2})?$/.test(v)) throw new UsageError(`--price-${cur.toLowerCase()} must be an amount such as 5.99`);
        prices[cur] = Number(v);
      }
      if (Object.keys(prices).length) change.prices = prices;
      if (values.days !== undefined) {
        const d = Number(values.days);
        if (!Number.isInteger(d) || d < 1 || d > 3660) throw new UsageError('--days must be a whole number 1-3660');
        change.durationDays = d;
      }
      if (values.storage !== undefined) {
        const parsed = envBytes(0).safeParse(values.storage);
        if (!parsed.success) throw new UsageError('--storage must be a size such as 5GB');
        change.storageBytes = parsed.data;
      }
      if (values['expiry-warning'] !== undefined) {
        if (!['true', 'false'].includes(values['expiry-warning'])) throw new UsageError('--expiry-warning must be true or false');
        change.expiryWarning = values['expiry-warning'] === 'true';
      }
      if (!Object.keys(change).length) throw new UsageError('nothing to change: give --price-usd, --price-cny, --price-krw, --price-eur, --days, --storage or --expiry-warning');
      return await membership.editPlan(code, change);
    }
    if (area === 'code' || area === 'ad') return await runCommerceAdmin(area, action, { db, config }, values, positionals);
    if (area === 'storage' && action === 'gc') return await collectGarbage(db, createStorage(config), { dryRun: values['dry-run'] === true });
    if (area === 'jobs' && action === 'list') {
      const state = values.state as JobState | undefined;
      if (state && !JOB_STATES.includes(state)) throw new UsageError(`--state must be one of ${JOB_STATES.join(', ')}`);
      return await withQueue((q) => q.list({ state, limit: Number(values.limit ?? 50) }));
    }
    if (area === 'jobs' && action === 'retry') {
      const id = jobId();
      if (!(await withQueue((q) => q.retry(id)))) throw new UsageError(`no failed job ${id}`);
      return { id, state: 'waiting' };
    }
    if (area === 'jobs' && action === 'cancel') {
      const id = jobId();
      if (!(await withQueue((q) => q.cancel(id)))) throw new UsageError(`job ${id} is running, finished or unknown: not cancelled`);
      return { id, state: 'cancelled' };
    }
    if (area === 'stats') return await withQueue((q) => instanceStats(db, q));
    if (area === 'backup' || area === 'restore') {
      if (!action) throw new UsageError(`missing the backup folder: npm run admin -- ${area} <dir>`);
      const storage = createStorage(config);
      if (area === 'backup') return await backupInstance({ db, storage, dataDir: config.dataDir, dir: action, copyObjects: values.objects === true });
      if ('ensureBucket' in storage) await (storage as { ensureBucket(): Promise<void> }).ensureBucket();
      return await restoreInstance({ db, storage, dataDir: config.dataDir, dir: action, force: values.force === true });
    }
    if (area === 'mail' && action === 'outbox') {
      return (await listOutbox(db, { limit: Number(values.limit ?? 20) })).map((m) => ({ id: m.id, to: m.to_addr, subject: m.subject, status: m.status, at: new Date(m.created_at).toISOString(), text: m.text, error: m.error ?? undefined }));
    }
    throw new UsageError(USAGE);
    // (every answer above is awaited before it is returned: the database closes in `finally`)
  } finally {
    await db.destroy();
  }
}

/** The command line: the answer as JSON on stdout, a usage or known error as its message on stderr (exit 1). */
export function adminMain(argv: string[]): Promise<void> {
  return runAdmin(argv).then(
    (out) => {
      console.log(JSON.stringify(out, null, 2));
    },
    (e) => {
      if (e instanceof UsageError || e instanceof CommerceUsageError || e instanceof InvoiceStateError || e instanceof BackupError || e instanceof AccountError || e instanceof ConfigError || (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') console.error((e as Error).message);
      else console.error(e);
      process.exit(1);
    },
  );
}

// from the sources (`node --import tsx apps/server/src/admin/admin.cli.ts`); the compiled CLI starts at admin.main.ts
if (process.argv[1]?.endsWith('admin.cli.ts')) void adminMain(process.argv.slice(2));
