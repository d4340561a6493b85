import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CompanyInfo, CompanyRole } from '@cadcloud/contracts';
import { invoices as texts, format, type Language } from '@cadcloud/i18n';
import type { AppDeps } from '../../app.deps.ts';
import { newId } from '../../infra/db/ids.ts';
import { persistentSecret } from '../../infra/storage/storage.factory.ts';
import { appError } from '../../infra/http/app-error.ts';
import { createInvoicesRepository, type MemberRow } from './invoices.repository.ts';

export type CompaniesDeps = Pick<AppDeps, 'db' | 'config' | 'mailer'>;

/** A text of the invoices namespace in `lang` with its `{0}` placeholders filled. */
export function invoiceText(lang: Language, key: string, args: readonly (string | number)[] = []): string {
  return format((texts[lang] as Record<string, string>)[key] ?? (texts.en as Record<string, string>)[key] ?? key, args);
}

/**
 * Companies and their members (issue 23 part 1): the operator creates a company with its admin; an admin invites
 * members by e-mail (an HMAC-signed accept link: `<memberId>.<hmac(memberId, e-mail)>`, usable while the invitation
 * is open, only by the account with the invited e-mail) and sets who may request invoices. A user belongs to the
 * company whose invitation they accepted (the oldest, if several).
 */
export function createCompaniesService(deps: CompaniesDeps) {
  const repo = createInvoicesRepository(deps.db);
  const secret = () => persistentSecret(deps.config.dataDir, 'company-invites');
  const sign = (memberId: string, email: string) => createHmac('sha256', secret()).update(`${memberId}\n${email}`).digest('base64url');
  const inviteToken = (m: Pick<MemberRow, 'id' | 'invited_email'>) => `${m.id}.${sign(m.id, m.invited_email)}`;
  const acceptUrl = (m: MemberRow) => `${deps.config.publicUrl}/invoice/index?acceptInvite=${encodeURIComponent(inviteToken(m))}`;

  async function mailInvitation(m: MemberRow, companyName: string, lang: Language) {
    await deps.mailer.send({ to: m.invited_email, subject: invoiceText(lang, 'mail.invite.subject', [companyName]), text: invoiceText(lang, 'mail.invite.text', [companyName, acceptUrl(m)]) });
  }

  /** Adds (or re-sends) the invitation of `email`; a member already active keeps their place, only may_invoice changes. */
  async function addMember(companyId: string, email: string, o: { role: CompanyRole; mayInvoice: boolean; lang: Language }) {
    const company = await repo.company(companyId);
    if (!company) throw appError('company.memberNotFound');
    const addr = email.trim().toLowerCase();
    const existing = await repo.memberByEmail(companyId, addr);
    if (existing) {
      await repo.updateMember(existing.id, { may_invoice: o.mayInvoice ? 1 : 0, ...(o.role === 'admin' ? { role: 'admin' } : {}) });
      const m = (await repo.member(existing.id))!;
      if (m.status === 'invited') await mailInvitation(m, company.name, o.lang);
      return m;
    }
    const m: MemberRow = { id: newId(), company_id: companyId, uid: null, role: o.role, may_invoice: o.mayInvoice ? 1 : 0, invited_email: addr, status: 'invited', created_at: Date.now() };
    await repo.insertMember(m);
    await mailInvitation(m, company.name, o.lang);
    return m;
  }

  async function membershipOf(uid: string) {
    const m = await repo.activeMembership(uid);
    if (!m) throw appError('company.notMember');
    return m;
  }
  async function adminOf(uid: string) {
    const m = await membershipOf(uid);
    if (m.role !== 'admin') throw appError('company.notAdmin');
    return m;
  }
  const presentMember = (m: MemberRow) => ({ memberId: m.id, email: m.invited_email, role: m.role as CompanyRole, mayInvoice: m.role === 'admin' || m.may_invoice === 1, status: m.status as 'invited' | 'active' });

  /** The caller's company as getCompanyInfoByToken answers it; null when in none. */
  async function companyOfUser(uid: string): Promise<CompanyInfo | null> {
    const m = await repo.activeMembership(uid);
    if (!m) return null;
    return { companyId: m.company_id, companyName: m.company_name, taxId: m.company_tax_id, role: m.role as CompanyRole, mayInvoice: m.role === 'admin' || m.may_invoice === 1 };
  }

  return {
    repo,
    inviteToken,
    companyOfUser,
    membershipOf,

    /** Operator: a company and its first admin (invited by e-mail; active at once when that account exists already). */
    async createCompany(o: { name: string; taxId?: string; adminEmail: string; lang?: Language }) {
      const name = o.name.trim();
      if (!name) throw new Error('the company needs a name');
      const id = newId();
      await repo.insertCompany({ id, name, tax_id: o.taxId?.trim() || null, created_at: Date.now() });
      const admin = await addMember(id, o.adminEmail, { role: 'admin', mayInvoice: true, lang: o.lang ?? 'zh' });
      const user = await repo.userByEmail(admin.invited_email);
      if (user) await repo.activateMember(admin.id, user.id);
      return { companyId: id, name, taxId: o.taxId ?? null, admin: presentMember((await repo.member(admin.id))!) };
    },
    /**
     * A signed-in user in no company creates one and is its admin at once (issue 23: "an operator or a company admin
     * creates a company"); a member of a company is refused (one company per user, as getCompanyInfoByToken answers one).
     */
    async createOwnCompany(uid: string, o: { name: string; taxId?: string }): Promise<CompanyInfo> {
      if (await repo.activeMembership(uid)) throw appError('company.alreadyMember');
      const user = await repo.userById(uid);
      if (!user) throw appError('company.notMember');
      const id = newId();
      await repo.insertCompany({ id, name: o.name.trim(), tax_id: o.taxId?.trim() || null, created_at: Date.now() });
      await repo.insertMember({ id: newId(), company_id: id, uid, role: 'admin', may_invoice: 1, invited_email: user.email.toLowerCase(), status: 'active', created_at: Date.now() });
      return (await companyOfUser(uid))!;
    },
    /** Operator: invites into any company. */
    invite: (companyId: string, email: string, mayInvoice: boolean, lang: Language = 'zh') => addMember(companyId, email, { role: 'member', mayInvoice, lang }).then(presentMember),
    async list() {
      const counts = await repo.memberCounts();
      return (await repo.companies()).map((c) => ({ companyId: c.id, name: c.name, taxId: c.tax_id, createdAt: new Date(c.created_at).toISOString(), active: Number(counts.find((n) => n.company_id === c.id && n.status === 'active')?.n ?? 0), invited: Number(counts.find((n) => n.company_id === c.id && n.status === 'invited')?.n ?? 0) }));
    },

    /** A company admin: the members and open invitations. */
    async members(uid: string) {
      const me = await adminOf(uid);
      return { members: (await repo.members(me.company_id)).map(presentMember) };
    },
    /** A company admin invites by e-mail. */
    async inviteByAdmin(uid: string, email: string, mayInvoice: boolean, lang: Language) {
      const me = await adminOf(uid);
      return presentMember(await addMember(me.company_id, email, { role: 'member', mayInvoice, lang }));
    },
    /** A company admin sets who may request invoices (admins always may). */
    async setMayInvoice(uid: string, memberId: string, mayInvoice: boolean) {
      const me = await adminOf(uid);
      const m = await repo.member(memberId);
      if (!m || m.company_id !== me.company_id) throw appError('company.memberNotFound');
      await repo.updateMember(m.id, { may_invoice: mayInvoice ? 1 : 0 });
      return presentMember((await repo.member(m.id))!);
    },
    /** The invited user follows the link: the signature, the open invitation and their own e-mail must all match. */
    async accept(uid: string, token: string): Promise<CompanyInfo> {
      const [memberId, mac] = token.split('.');
      const m = memberId ? await repo.member(memberId) : undefined;
      const user = await repo.userById(uid);
      if (!m || !mac || !user || m.status !== 'invited') throw appError('company.inviteInvalid');
      const want = Buffer.from(sign(m.id, m.invited_email));
      const got = Buffer.from(mac);
      if (want.length !== got.length || !timingSafeEqual(want, got) || user.email.toLowerCase() !== m.invited_email) throw appError('company.inviteInvalid');
      if (!(await repo.activateMember(m.id, uid))) throw appError('company.inviteInvalid');
      return (await companyOfUser(uid))!;
    },
  };
}
export type CompaniesService = ReturnType<typeof createCompaniesService>;

/** Spec section 7's getCompanyInfoByToken, for other modules (e.g. the account center): the user's company or null. */
export function companyOfUser(deps: CompaniesDeps, uid: string): Promise<CompanyInfo | null> {
  return createCompaniesService(deps).companyOfUser(uid);
}
