import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.factory.ts';
import { listOutbox } from './outbox.ts';
import { testDatabaseDrivers, type TestDatabase } from '../db/test-databases.ts';
import { startSmtp } from '../../test/smtp-peer.ts';

// every driver the app may run on, since the outbox is a table in it
for (const driver of testDatabaseDrivers()) describe(`mail (outbox on ${driver.name})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await driver.create();
  });
  afterAll(async () => t?.destroy());

  it('stores mail in the outbox when no SMTP server is configured', async () => {
    const mailer = createMailer({ smtpUrl: undefined, mailFrom: 'x@cadcloud.local' }, t.db);
    expect(mailer.name).toBe('outbox');
    await mailer.send({ to: 'a@example.com', subject: 'Reset', text: 'link' });
    const [m] = await listOutbox(t.db, { limit: 1 });
    expect(m).toMatchObject({ to_addr: 'a@example.com', subject: 'Reset', text: 'link', status: 'stored' });
  });

  it('sends through a real SMTP server and records it as sent', async () => {
    const smtp = await startSmtp();
    try {
      const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'CADCloud <no-reply@cadcloud.local>' }, t.db);
      await mailer.send({ to: 'b@example.com', subject: '分享 Share', text: 'hello 图纸', html: '<p>hello <b>图纸</b></p>' });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].subject).toBe('分享 Share');
      expect(smtp.received[0].text?.trim()).toBe('hello 图纸');
      expect((smtp.received[0].to as any).text).toBe('b@example.com');
      expect(smtp.received[0].html).toContain('<b>图纸</b>');
      expect((smtp.received[0].from as any).value[0].address).toBe('no-reply@cadcloud.local');
      const [m] = await listOutbox(t.db, { limit: 1 });
      expect(m.status).toBe('sent');
    } finally {
      await smtp.close();
    }
  });

  it('rejects and records the failure when the server refuses', async () => {
    const smtp = await startSmtp(true);
    try {
      const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'no-reply@cadcloud.local' }, t.db);
      await expect(mailer.send({ to: 'c@example.com', subject: 'x', text: 'y' })).rejects.toThrow();
      const [m] = await listOutbox(t.db, { limit: 1 });
      expect(m).toMatchObject({ to_addr: 'c@example.com', status: 'failed' });
      expect(m.error).toMatch(/mailbox unavailable|550/);
    } finally {
      await smtp.close();
    }
  });

  it('records the failure when no server answers at all', async () => {
    const smtp = await startSmtp();
    await smtp.close();
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'no-reply@cadcloud.local' }, t.db);
    await expect(mailer.send({ to: ['d@example.com', 'e@example.com'], subject: 'gone', text: 'z' })).rejects.toThrow();
    const [m] = await listOutbox(t.db, { limit: 1 });
    expect(m).toMatchObject({ to_addr: 'd@example.com, e@example.com', subject: 'gone', status: 'failed' });
    expect(m.error).toMatch(/ECONNREFUSED|connect/i);
  });

  it('lists the outbox newest first, limited', async () => {
    const mailer = createMailer({ smtpUrl: undefined, mailFrom: 'x@cadcloud.local' }, t.db);
    for (const n of [1, 2, 3]) await mailer.send({ to: 'f@example.com', subject: `n${n}`, text: '' });
    expect((await listOutbox(t.db, { limit: 2 })).map((m) => m.subject)).toEqual(['n3', 'n2']);
  });
});
