/**
 * Issue 14, item 6: share extraction. Before: 100 wrong codes from anyone (any address, in half a second) locked a
 * share for everyone for 15 minutes, again and again; a code-only 4-digit share fell to ~9,600 guesses a day.
 * Now: a per-client backoff, a per-share proof of work that grows with the share's recent failures, and codes long
 * enough for the share's validity (contracts share-extraction.ts has the arithmetic). On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { leadingZeroBits, maxWrongGuesses, codeSpace, proofMessage, type ExtractionModel } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';
import { extractWithProof, postExtract, solveProof } from '../test/share-proof.ts';
import { setSharesClock } from '../modules/shares/shares.service.ts';

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const HOUR = 3_600_000;
/** Proofs 2^10 times cheaper than in production, against an attacker 2^10 times weaker: the same code-length rules. */
const CHEAP_PROOFS = { SHARE_POW_BASE_BITS: '8', SHARE_ATTACKER_HASH_RATE: String(1e11 / 1024) };

type Envelope = { rtnCode: string; bizData: any; msg: string };
const codeOf = (r: Envelope) => (r.rtnCode === '0000000' ? 'ok' : (r.bizData?.code as string));
const otherCode = (code: string, i: number) => String((Number(code) + 1 + i) % 10 ** code.length).padStart(code.length, '0');

for (const driver of testDatabaseDrivers()) {
  describe(`share extraction guard on ${driver.name}`, () => {
    let t: TestApp;
    let owner: { id: string; token: string };
    let clock = T0;
    let fileId: string;

    beforeAll(async () => {
      t = await createTestApp(driver, CHEAP_PROOFS);
      setSharesClock(t.deps, () => clock);
      owner = await t.createUser();
      fileId = (await t.upload(owner.token, 'plan.dxf', randomBytes(200))).bizData.id;
    });
    afterAll(async () => t?.close());
    beforeEach(() => {
      clock = T0;
    });

    const share = async (data: object = {}) => {
      const r = await t.call('/cloud/v5/share/create', { fileIds: [fileId], validDays: 7, ...data }, owner.token);
      expect(r.rtnCode, JSON.stringify(r)).toBe('0000000');
      return r.bizData as { rand: string; code: string; shareId: string; codeKind: string };
    };
    /** An attempt as a script sends it: no challenge, no proof. */
    const bare = (rand: string, code: string, ip: string) => postExtract(t, { rand, code }, ip);

    it('a burst of 100 wrong codes, from one address or from 100, does not keep another client with the right code out', async () => {
      const s = await share();
      const one = await Promise.all(Array.from({ length: 100 }, (_, i) => bare(s.rand, otherCode(s.code, i), '203.0.113.1')));
      const many = await Promise.all(Array.from({ length: 100 }, (_, i) => bare(s.rand, otherCode(s.code, 100 + i), `198.51.100.${i + 1}`)));
      const tally = (rs: Envelope[]) => rs.map(codeOf).reduce<Record<string, number>>((a, c) => ({ ...a, [c]: (a[c] ?? 0) + 1 }), {});
      // only the share's free failures are ever compared; the rest wait their turn or need a proof
      const wrong = (tally(one)['share.wrongCode'] ?? 0) + (tally(many)['share.wrongCode'] ?? 0);
      expect(wrong).toBeLessThanOrEqual(3);
      expect(Object.keys(tally(one)).every((k) => ['share.wrongCode', 'share.tryLater', 'share.proofRequired'].includes(k)), JSON.stringify(tally(one))).toBe(true);
      expect(Object.keys(tally(many)).every((k) => ['share.wrongCode', 'share.proofRequired'].includes(k)), JSON.stringify(tally(many))).toBe(true);
      // the right code from someone else: a cheap proof, then in
      const c = (await t.call('/cloud/v5/share/challenge', { rand: s.rand })).bizData;
      expect(c.bits).toBe(8);
      const r = await extractWithProof(t, s, '192.0.2.77');
      expect(codeOf(r)).toBe('ok');
      expect(r.bizData.shareToken).toBeTruthy();
    }, 120_000);

    it('a script without proofs gets no answer on the code; the client backoff holds; a right code with a valid proof is accepted', async () => {
      const s = await share();
      // three free wrong codes (each from its own address)
      for (let i = 0; i < 3; i++) expect(codeOf(await bare(s.rand, otherCode(s.code, i), `10.1.0.${i}`))).toBe('share.wrongCode');
      // now even the right code is not read without a proof: the answer says nothing about it
      const noProof = await bare(s.rand, s.code, '10.1.1.1');
      expect([codeOf(noProof), noProof.bizData.bits, noProof.bizData.shareToken]).toEqual(['share.proofRequired', 8, undefined]);
      const wrongNoProof = await bare(s.rand, otherCode(s.code, 5), '10.1.1.2');
      expect([codeOf(wrongNoProof), wrongNoProof.msg]).toEqual(['share.proofRequired', noProof.msg]);
      // proofs that do not count: none, garbage, another share's, too weak, used twice
      const c = (await t.call('/cloud/v5/share/challenge', { rand: s.rand })).bizData;
      const other = await share();
      const otherC = (await t.call('/cloud/v5/share/challenge', { rand: other.rand })).bizData;
      const weak = { challenge: c.challenge, proof: (() => { for (let n = 0; ; n++) if (leadingZeroBits(createHash('sha256').update(proofMessage(c.challenge, n.toString(36))).digest()) < 8) return n.toString(36); })() };
      for (const [what, data] of [
        ['garbage', { challenge: 'x.y', proof: 'abc' }],
        ['another share', { challenge: otherC.challenge, proof: solveProof(otherC.challenge, 1).proof }],
        ['too weak', weak],
      ] as const) {
        expect([what, codeOf(await postExtract(t, { rand: s.rand, code: s.code, ...data }, '10.1.1.3'))]).toEqual([what, 'share.proofRequired']);
      }
      const good = solveProof(c.challenge, c.bits).proof;
      expect(codeOf(await postExtract(t, { rand: s.rand, code: otherCode(s.code, 9), challenge: c.challenge, proof: good }, '10.1.1.4'))).toBe('share.wrongCode');
      expect(codeOf(await postExtract(t, { rand: s.rand, code: s.code, challenge: c.challenge, proof: good }, '10.1.1.5'))).toBe('share.proofRequired');

      // one client with proofs: 3 wrong codes answered, then 1 s, 2 s, 4 s … between its attempts (not a sleeping socket)
      const ip = '10.2.0.1';
      const seen: [string, number | undefined][] = [];
      for (let i = 0; i < 3; i++) {
        const r = await extractWithProof(t, { rand: s.rand, code: otherCode(s.code, 20 + i) }, ip);
        seen.push([codeOf(r), r.bizData.retryAfter]);
      }
      expect(seen).toEqual([['share.wrongCode', undefined], ['share.wrongCode', undefined], ['share.wrongCode', 1]]);
      const started = Date.now();
      const wait = await extractWithProof(t, s, ip);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect([codeOf(wait), wait.bizData.retryAfter, wait.msg]).toEqual(['share.tryLater', 1, 'Too many wrong attempts, please try again in 1 s']);
      clock += 1000;
      expect(codeOf(await extractWithProof(t, { rand: s.rand, code: otherCode(s.code, 30) }, ip))).toBe('share.wrongCode');
      clock += 1999;
      expect((await extractWithProof(t, s, ip)).bizData).toMatchObject({ code: 'share.tryLater', retryAfter: 1 });
      // another client is not held up by that one
      expect(codeOf(await extractWithProof(t, s, '10.2.0.2'))).toBe('ok');
      clock += 1;
      // after its wait, the right code with a valid proof gets in, however many wrong codes the share has seen
      expect(codeOf(await extractWithProof(t, s, ip))).toBe('ok');
    }, 120_000);

    it('the proof of work grows with the share\'s recent failures and is back to none two quiet hours later', async () => {
      const s = await share();
      const bits = async () => (await t.call('/cloud/v5/share/challenge', { rand: s.rand })).bizData.bits as number;
      const seen: number[] = [await bits()];
      for (let i = 0; i < 9; i++) {
        expect(codeOf(await extractWithProof(t, { rand: s.rand, code: otherCode(s.code, i) }, `10.3.0.${i}`))).toBe('share.wrongCode');
        seen.push(await bits());
      }
      // 3 free, then 8 bits, one more for every 2 further failures
      expect(seen).toEqual([0, 0, 0, 8, 8, 9, 9, 10, 10, 11]);
      // a success takes nothing away from what the guessers pay, nor adds to it
      expect(codeOf(await extractWithProof(t, s, '10.3.1.1'))).toBe('ok');
      expect(await bits()).toBe(11);
      clock += HOUR;
      expect(await bits()).toBe(11); // the previous hour still counts
      clock += HOUR;
      expect(await bits()).toBe(0);
      expect(codeOf(await bare(s.rand, s.code, '10.3.1.2'))).toBe('ok');
    }, 120_000);

    it('a botnet cannot go through a code-only share within its validity (the arithmetic, and the service held to it)', async () => {
      // the model with the production values: ~31 wrong codes an hour at 10^11 SHA-256/s, logarithmic in the power
      expect(maxWrongGuesses(1)).toBeLessThan(100);
      expect(maxWrongGuesses(7 * 24)).toBeLessThan(codeSpace('digits4'));
      expect(maxWrongGuesses(99 * 24)).toBeLessThan(codeSpace('digits6'));
      expect(maxWrongGuesses(100 * 365 * 24)).toBeLessThan(codeSpace('alnum8'));
      expect(maxWrongGuesses(100 * 365 * 24)).toBeLessThan(codeSpace('digits4', 'ab12'));
      const stronger = (rate: number) => maxWrongGuesses(1000, { baseBits: 18, failuresPerBit: 2, freeFailures: 3, windowMs: HOUR, attackerHashRate: rate }) / 1000;
      expect(stronger(1e13) - stronger(1e11)).toBeLessThan(8); // 100 times the power: a few more guesses an hour

      // the service itself, with a small attacker so the test can do its hashing: baseBits 2 and 2^12 hashes an hour,
      // every guess from a fresh address, for 12 simulated hours
      const small = await createTestApp(driver, { SHARE_POW_BASE_BITS: '2', SHARE_ATTACKER_HASH_RATE: '1' });
      try {
        let now = T0;
        setSharesClock(small.deps, () => now);
        const u = await small.createUser();
        const f = (await small.upload(u.token, 'x.bin', randomBytes(10))).bizData.id;
        const s = (await small.call('/cloud/v5/share/create', { fileIds: [f], validDays: 1, codeKind: 'digits6' }, u.token)).bizData;
        const model: ExtractionModel = { baseBits: 2, failuresPerBit: 2, freeFailures: 3, windowMs: HOUR, attackerHashRate: 4096 / 3600 };
        let wrong = 0;
        let ip = 0;
        for (let hour = 0; hour < 12; hour++) {
          now = T0 + hour * HOUR;
          let budget = 4096;
          for (;;) {
            const c = (await small.call('/cloud/v5/share/challenge', { rand: s.rand })).bizData;
            if (c.bits > 0 && 2 ** c.bits > budget) break;
            const p = c.bits > 0 ? solveProof(c.challenge, c.bits) : undefined;
            budget -= p ? 2 ** c.bits : 0;
            ip++;
            const r = await postExtract(small, { rand: s.rand, code: otherCode(s.code, ip), ...(p ? { challenge: c.challenge, proof: p.proof } : {}) }, `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`);
            expect(codeOf(r)).toBe('share.wrongCode');
            wrong++;
          }
        }
        // what the service answered is what the model allows (the model spends expected, not lucky, work)
        expect(wrong).toBe(maxWrongGuesses(12, model));
        expect(wrong).toBeLessThan(12 * 30);
      } finally {
        await small.close();
      }
    }, 300_000);

    it('refuses codes too short for the validity and picks a long enough one by default', async () => {
      const refused = await t.call('/cloud/v5/share/create', { fileIds: [fileId], validDays: 0, codeKind: 'digits4' }, owner.token);
      expect([refused.bizData.code, refused.msg]).toEqual(['share.codeTooShort', 'This extraction code is too short for a share valid this long: choose a longer code or set an extraction password']);
      expect((await t.call('/cloud/v5/share/create', { fileIds: [fileId], validDays: 0, codeKind: 'digits6' }, owner.token)).bizData.code).toBe('share.codeTooShort');
      expect((await t.call('/cloud/v5/share/create', { fileIds: [fileId], validDays: 30, codeKind: 'digits4' }, owner.token)).bizData.code).toBe('share.codeTooShort');
      expect((await share({ validDays: 0 })).code).toMatch(/^[2-9a-hjkmnp-z]{8}$/);
      expect((await share({ validDays: 30 })).codeKind).toBe('digits6');
      expect((await share({ validDays: 7 })).codeKind).toBe('digits4');
      expect((await share({ validDays: 0, codeKind: 'digits4', password: 'ab12' })).codeKind).toBe('digits4');
      expect((await share({ validDays: 3, codeKind: 'alnum8' })).codeKind).toBe('alnum8');
      // an 8-character code is typed in any case, with spaces
      const s = await share({ validDays: 0 });
      const typed = `${s.code.slice(0, 4).toUpperCase()} ${s.code.slice(4)}`;
      expect(codeOf(await extractWithProof(t, { rand: s.rand, code: typed }, '10.4.0.1'))).toBe('ok');
      // the public facts say what kind of code to ask for
      expect((await t.call('/cloud/v5/share/getInfoByRand', { rand: s.rand })).bizData.codeKind).toBe('alnum8');
    }, 60_000);

    it('group shares cannot be opened by rand and code', async () => {
      const g = (await t.call('/cloud/v5/group/create', { name: 'crew', introduction: '' }, owner.token)).bizData.groupId;
      expect((await t.call('/cloud/v5/group/share', { groupIds: [g], fileIds: [fileId] }, owner.token)).rtnCode).toBe('0000000');
      const row = await t.db.db.selectFrom('shares').select(['rand', 'code']).where('group_id', '=', g).executeTakeFirstOrThrow();
      expect(codeOf(await bare(row.rand, row.code, '10.5.0.1'))).toBe('share.notFound');
      expect((await t.call('/cloud/v5/share/getInfoByRand', { rand: row.rand })).bizData.code).toBe('share.notFound');
    }, 60_000);
  });
}
