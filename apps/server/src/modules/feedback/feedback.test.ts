import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createDatabase } from '../../infra/index.ts';
import { loadConfig } from '../../infra/config/index.ts';
import { createStorage } from '../../infra/storage/storage.factory.ts';
import { createMailer } from '../../infra/mail/mailer.factory.ts';
import { createFeedbackService, htmlToText } from './feedback.service.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { runAdmin } from '../../admin/admin.cli.ts';
import { FEEDBACK_SCREENSHOT_MAX_BYTES } from '@cadcloud/contracts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const dataUrl = (type: string, b: Buffer) => `data:${type};base64,${b.toString('base64')}`;

for (const driver of testDatabaseDrivers()) {
  describe(`feedback on ${driver.name}`, () => {
    let t: TestApp;
    let ipSeq = 0;
    /** a call from its own client address (so the per-address budget of one test does not touch another's) */
    const send = async (data: unknown, o: { token?: string; ip?: string; lang?: string } = {}) => {
      const r = await t.app.inject({ method: 'POST', url: o.token ? `/cloud/v5/advice/add?utoken=${o.token}` : '/cloud/v5/advice/add', remoteAddress: o.ip ?? `10.0.0.${++ipSeq}`, payload: { data, clientInfo: { clientType: 'Web_PC', language: o.lang ?? 'en' } } });
      return r.json();
    };
    beforeAll(async () => {
      t = await createTestApp(driver, { FEEDBACK_PER_HOUR: '3', FEEDBACK_PER_DAY: '4' });
    });
    afterAll(async () => t?.close());

    it('refuses a missing or bad e-mail and missing content with the spec\'s messages, storing nothing', async () => {
      const cases: [unknown, string, string][] = [
        [{ content: 'hi' }, 'feedback.emailRequired', 'Please enter your e-mail'],
        [{ email: '   ', content: 'hi' }, 'feedback.emailRequired', 'Please enter your e-mail'],
        [{ email: 'not-an-address', content: 'hi' }, 'feedback.emailInvalid', 'E-mail format is incorrect'],
        [{ email: 'a@example.com' }, 'feedback.contentRequired', 'Please enter your feedback'],
        [{ email: 'a@example.com', content: ' \n ' }, 'feedback.contentRequired', 'Please enter your feedback'],
        [{ email: 'a@example.com', content: 'x'.repeat(2001) }, 'feedback.contentTooLong', 'Feedback can be at most 2000 characters'],
      ];
      for (const [data, code, msg] of cases) {
        const r = await send(data);
        expect(r.bizData?.code, JSON.stringify(data)).toBe(code);
        expect(r.msg).toBe(msg);
      }
      expect((await send({ content: 'hi' }, { lang: 'zh' })).msg).toBe('请输入邮箱');
      expect(await t.db.db.selectFrom('feedback').selectAll().execute()).toEqual([]);
    });

    it('stores a visitor\'s feedback with the page, and a signed-in user\'s with their account', async () => {
      const r = await send({ email: ' v@example.com ', content: ' the viewer is slow ', pageUrl: '/yun/recent?x=1' }, { lang: 'de' });
      expect(r.rtnCode).toBe('0000000');
      const row = await t.db.db.selectFrom('feedback').selectAll().where('id', '=', r.bizData.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ uid: null, email: 'v@example.com', content: 'the viewer is slow', page_url: '/yun/recent?x=1', screenshot_key: null, language: 'de', replied_at: null });
      const u = await t.createUser();
      const mine = await send({ email: u.email, content: 'please add layers', pageUrl: 'javascript:alert(1)' }, { token: u.token });
      const row2 = await t.db.db.selectFrom('feedback').selectAll().where('id', '=', mine.bizData.id).executeTakeFirstOrThrow();
      expect(row2.uid).toBe(u.id);
      // only a path of the site or an http(s) address is kept as the page
      expect(row2.page_url).toBeNull();
    });

    it('keeps a screenshot that is the image it claims, up to the size cap; refuses anything else', async () => {
      const r = await send({ email: 's@example.com', content: 'see picture', screenshot: dataUrl('image/png', PNG) });
      expect(r.rtnCode).toBe('0000000');
      const row = await t.db.db.selectFrom('feedback').selectAll().where('id', '=', r.bizData.id).executeTakeFirstOrThrow();
      expect(row.screenshot_key).toBe(`feedback/${r.bizData.id}.png`);
      const stored = Buffer.concat(await (await t.deps.storage.get(row.screenshot_key!)).toArray());
      expect(stored.equals(PNG)).toBe(true);
      const before = (await t.db.db.selectFrom('feedback').selectAll().execute()).length;
      const tooBig = Buffer.concat([PNG, Buffer.alloc(FEEDBACK_SCREENSHOT_MAX_BYTES)]);
      for (const screenshot of [dataUrl('image/jpeg', PNG), dataUrl('image/svg+xml', Buffer.from('<svg/>')), dataUrl('text/html', Buffer.from('<b>')), dataUrl('image/png', Buffer.from('GIF89a')), 'data:image/png;base64,***']) {
        expect((await send({ email: 's@example.com', content: 'x', screenshot })).bizData?.code, screenshot.slice(0, 30)).toBe('feedback.screenshotInvalid');
      }
      // over the cap: refused by the request's contract before anything is decoded
      expect((await send({ email: 's@example.com', content: 'x', screenshot: dataUrl('image/png', tooBig) })).bizData?.code).toBe('request.invalid');
      expect((await t.db.db.selectFrom('feedback').selectAll().execute()).length).toBe(before);
    });

    it('bounds messages per client address and per user (a user changing address is still counted)', async () => {
      const ip = '10.9.9.9';
      for (let i = 0; i < 3; i++) expect((await send({ email: 'r@example.com', content: `m${i}` }, { ip })).rtnCode).toBe('0000000');
      const over = await send({ email: 'r@example.com', content: 'm3' }, { ip });
      expect(over.bizData.code).toBe('feedback.tooMany');
      expect(over.msg).toBe('Too much feedback at once, please try again in 60 minutes');
      // another address is not affected
      expect((await send({ email: 'r@example.com', content: 'other' }, { ip: '10.9.9.10' })).rtnCode).toBe('0000000');
      const u = await t.createUser();
      for (let i = 0; i < 3; i++) expect((await send({ email: u.email, content: `u${i}` }, { token: u.token, ip: `10.8.0.${i}` })).rtnCode).toBe('0000000');
      expect((await send({ email: u.email, content: 'u3' }, { token: u.token, ip: '10.8.0.99' })).bizData.code).toBe('feedback.tooMany');
      // the refused one was not stored, nor did it spend the new address's budget
      expect((await t.db.db.selectFrom('feedback').select('id').where('uid', '=', u.id).execute()).length).toBe(3);
      expect((await send({ email: 'x@example.com', content: 'fresh' }, { ip: '10.8.0.99' })).rtnCode).toBe('0000000');
    });

    it('serves the built-in contact and declaration texts when the operator configured none', async () => {
      expect((await t.call('/global/v5/common/infoPage', { name: 'contact' })).bizData).toEqual({ text: null, email: null });
      expect((await t.call('/global/v5/common/infoPage', { name: 'declaration' })).bizData).toEqual({ text: null, email: null });
      expect((await t.call('/global/v5/common/infoPage', { name: '../etc/passwd' })).rtnCode).not.toBe('0000000');
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['/cloud/v5/advice/add', '/global/v5/common/infoPage']) expect(doc.paths[p], p).toBeTruthy();
    });
  });
}

describe('information pages the operator configures', () => {
  it('an HTML declaration file becomes text: scripts dropped, tags removed, headings and items marked', () => {
    expect(htmlToText('<html><head><title>x</title></head><body><h1>Terms</h1><p>Use it <b>well</b> &amp; <a href="javascript:x">safely</a>.</p><script>alert(1)</script><ul><li>one</li><li>two</li></ul><img src=x onerror=alert(1)></body></html>'))
      .toBe('# Terms\nUse it well & safely.\n\n- one\n- two');
  });

  it('reads CONTACT_FILE, CONTACT_EMAIL and DECLARATION_FILE as text', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-info-'));
    writeFileSync(path.join(dir, 'contact.md'), '# Call us\n<script>alert(1)</script>');
    writeFileSync(path.join(dir, 'decl.md'), 'Our terms.');
    const t = await createTestApp(testDatabaseDrivers()[0], { CONTACT_FILE: path.join(dir, 'contact.md'), CONTACT_EMAIL: 'help@example.com', DECLARATION_FILE: path.join(dir, 'decl.md') });
    try {
      // the text comes back as it is; the web app shows it as text (React escapes it), never as HTML
      expect((await t.call('/global/v5/common/infoPage', { name: 'contact' })).bizData).toEqual({ text: '# Call us\n<script>alert(1)</script>', email: 'help@example.com' });
      expect((await t.call('/global/v5/common/infoPage', { name: 'declaration' })).bizData).toEqual({ text: 'Our terms.', email: null });
    } finally {
      await t.close();
    }
  });
});

describe('admin feedback list and reply', () => {
  it('lists open feedback, mails the reply to the sender in their language and marks it answered', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-admin-feedback-'));
    const env = { DATA_DIR: dir, DATABASE_URL: '' };
    const admin = (...args: string[]): Promise<any> => runAdmin(args, env);
    // the admin CLI's own database (DATA_DIR): migrated by its first command, then two messages sent to it
    expect(await admin('feedback', 'list')).toEqual([]);
    const config = loadConfig(env);
    const db = createDatabase(config.databaseUrl);
    let first: string;
    let second: string;
    try {
      const feedback = createFeedbackService({ db, config, storage: createStorage(config), mailer: createMailer(config, db) });
      first = (await feedback.add({ email: 'one@example.com', content: 'first\nline two' }, { uid: null, ip: '1.2.3.4', language: 'zh', now: 1000 })).id;
      second = (await feedback.add({ email: 'two@example.com', content: 'second' }, { uid: null, ip: '1.2.3.4', language: 'en', now: 2000 })).id;
    } finally {
      await db.destroy();
    }
    expect((await admin('feedback', 'list')).map((f: { id: string }) => f.id)).toEqual([second, first]);
    await expect(admin('feedback', 'reply', first)).rejects.toThrow('missing --text');
    await expect(admin('feedback', 'reply', 'nope', '--text', 'x')).rejects.toThrow('no feedback nope');
    const answered = await admin('feedback', 'reply', first, '--text', 'Fixed in the next release.');
    expect(answered).toMatchObject({ id: first, reply: 'Fixed in the next release.' });
    expect(answered.repliedAt).toBeTruthy();
    expect((await admin('feedback', 'list', '--open')).map((f: { id: string }) => f.id)).toEqual([second]);
    const mails = await admin('mail', 'outbox');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'one@example.com', subject: 'CADCloud 对您的反馈的回复' });
    expect(mails[0].text).toContain('Fixed in the next release.');
    expect(mails[0].text).toContain('> first\n> line two');
  });
});
