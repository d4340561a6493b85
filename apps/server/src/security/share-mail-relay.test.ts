/**
 * Issue 14, item 11: share/email as a mail relay. Before: 1,000 messages went out in 0.13 s to any addresses, the
 * sharer's chosen name was the mail's subject, and the link followed the request's Host header. Now: at most 20
 * addresses a call, an hourly and a daily budget per user (database counters), a fixed sender and subject, the
 * sharer named only in the body (cleaned, quoted, with their account e-mail), the link on PUBLIC_URL. The mails go
 * to a real SMTP peer, so what is checked is what a recipient would get. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';
import { startSmtp } from '../test/smtp-peer.ts';
import { setSharesClock } from '../modules/shares/shares.service.ts';

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const HOUR = 3_600_000;

for (const driver of testDatabaseDrivers()) {
  describe(`share mail relay on ${driver.name}`, () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let clock = T0;

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await createTestApp(driver, { SMTP_URL: smtp.url, MAIL_FROM: 'CADCloud <no-reply@cadcloud.example>', PUBLIC_URL: 'https://cad.example.com', SHARE_EMAIL_PER_HOUR: '5', SHARE_EMAIL_PER_DAY: '8' });
      setSharesClock(t.deps, () => clock);
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });
    beforeEach(() => {
      smtp.received.length = 0;
    });

    async function sharer(name?: string) {
      const u = await t.createUser();
      if (name !== undefined) await t.db.db.updateTable('users').set({ name }).where('id', '=', u.id).execute();
      const f = (await t.upload(u.token, 'plan.dxf', randomBytes(100))).bizData.id;
      const s = (await t.call('/cloud/v5/share/create', { fileIds: [f] }, u.token)).bizData;
      return { u, s };
    }
    const email = (token: string, shareId: string, emails: string[]) => t.call('/cloud/v5/share/email', { shareId, emails }, token);
    const addresses = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}@example.net`);

    it('refuses 1,000 recipients in one call with the reason, and sends nothing', async () => {
      const { u, s } = await sharer();
      const r = await email(u.token, s.shareId, addresses(1000, 'bulk'));
      expect([r.bizData.code, r.msg]).toEqual(['share.emailTooMany', 'email send fail: at most 20 addresses at a time']);
      expect(smtp.received).toHaveLength(0);
      const ok = await email(u.token, s.shareId, addresses(5, 'few'));
      expect(ok.bizData).toEqual({ sent: 5 });
      expect(smtp.received).toHaveLength(5);
    }, 60_000);

    it('refuses the mail after the hourly budget, then after the daily one, also under parallel calls', async () => {
      clock = T0;
      const { u, s } = await sharer();
      expect((await email(u.token, s.shareId, addresses(3, 'h1'))).bizData).toEqual({ sent: 3 });
      expect((await email(u.token, s.shareId, addresses(2, 'h2'))).bizData).toEqual({ sent: 2 });
      const sixth = await email(u.token, s.shareId, ['six@example.net']);
      expect([sixth.bizData.code, sixth.msg]).toEqual(['share.emailHourLimit', 'email send fail: at most 5 share e-mails per hour, please try again later']);
      expect(smtp.received).toHaveLength(5);
      // an hour later: 3 more fit the day (8), the 4th does not
      clock = T0 + HOUR;
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => email(u.token, s.shareId, [`p${i}@example.net`])));
      expect(burst.filter((r) => r.rtnCode === '0000000')).toHaveLength(3);
      // (which budget refused each of the others depends on the race; never more than both allow)
      for (const r of burst.filter((x) => x.rtnCode !== '0000000')) expect(['share.emailDayLimit', 'share.emailHourLimit']).toContain(r.bizData.code);
      expect(smtp.received).toHaveLength(8);
      const day = await email(u.token, s.shareId, ['ninth@example.net']);
      expect([day.bizData.code, day.msg]).toEqual(['share.emailDayLimit', 'email send fail: at most 8 share e-mails per day, please try again tomorrow']);
      // another user has their own budget
      const other = await sharer();
      expect((await email(other.u.token, other.s.shareId, ['x@example.net'])).bizData).toEqual({ sent: 1 });
      // the next day the first user may send again
      clock = T0 + 25 * HOUR;
      expect((await email(u.token, s.shareId, ['next-day@example.net'])).bizData).toEqual({ sent: 1 });
    }, 60_000);

    it('keeps user text out of the headers: fixed sender and subject; the name only in the body, cleaned and escaped; the link on PUBLIC_URL', async () => {
      clock = T0 + 100 * HOUR;
      const hostile = '<script>x</script> CADCloud Security Team\r\nBcc: everyone@victim.example\r\nSubject: Your account is locked\u202e';
      const { u, s } = await sharer(hostile);
      const r = await t.app.inject({
        method: 'POST',
        url: `/cloud/v5/share/email?utoken=${encodeURIComponent(u.token)}`,
        headers: { host: 'evil.example' },
        payload: { data: { shareId: s.shareId, emails: ['friend@example.net'], language: 'en' } },
      });
      expect(r.json().rtnCode).toBe('0000000');
      expect(smtp.received).toHaveLength(1);
      const m = smtp.received[0];
      expect(m.subject).toBe('A CADCloud user shared files with you');
      expect((m.from as any).value).toEqual([{ address: 'no-reply@cadcloud.example', name: 'CADCloud' }]);
      expect((m.to as any).value.map((a: { address: string }) => a.address)).toEqual(['friend@example.net']);
      expect(m.bcc).toBeUndefined();
      expect(m.replyTo).toBeUndefined();
      for (const [k, v] of m.headers) expect([k, JSON.stringify(v)]).not.toEqual([k, expect.stringMatching(/Security Team|victim|locked/)]);
      // the body says who sent it: the account e-mail and the name, quoted on one line, marked as theirs
      const line = m.text!.split('\n').find((l) => l.startsWith('Shared by: '));
      expect(line).toBe(`Shared by: “<script>x</script> CADCloud Security Team Bcc: everyone@vic…” <${u.email}>`);
      expect(m.text).toContain('were written by that user, not by CADCloud');
      expect(m.text).not.toContain('\u202e');
      expect(m.html).toContain('&#60;script&#62;');
      expect(m.html).not.toContain('<script>');
      expect(m.text).toContain(`Link: https://cad.example.com/share/${s.rand}`);
      expect(m.text).not.toContain('evil.example');
    }, 60_000);
  });
}
