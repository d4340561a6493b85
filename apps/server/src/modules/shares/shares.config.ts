import { EXTRACTION_MODEL } from '@cadcloud/contracts';
import { defineConfig, envInt } from '../../infra/config/config.ts';

/**
 * The extraction guard (contracts share-extraction.ts has the arithmetic these feed) and the mail relay limits.
 * Lowering the proof-of-work settings makes the share dialog ask for longer codes: the server checks every code
 * against these values.
 */
export const sharesConfig = defineConfig({
  sharePowBaseBits: { env: 'SHARE_POW_BASE_BITS', schema: envInt(EXTRACTION_MODEL.baseBits, 1, 40), doc: 'leading zero bits of the first proof of work a share asks for (each bit doubles the work)' },
  sharePowFailuresPerBit: { env: 'SHARE_POW_FAILURES_PER_BIT', schema: envInt(EXTRACTION_MODEL.failuresPerBit, 1, 1000), doc: 'wrong codes on a share (last 1–2 hours) that add one bit to its proof of work' },
  shareFreeFailures: { env: 'SHARE_FREE_FAILURES', schema: envInt(EXTRACTION_MODEL.freeFailures, 0, 1000), doc: 'wrong codes on a share (last 1–2 hours) before a proof of work is needed' },
  shareAttackerHashRate: { env: 'SHARE_ATTACKER_HASH_RATE', schema: envInt(EXTRACTION_MODEL.attackerHashRate, 1), doc: 'SHA-256 per second of the botnet the code lengths are chosen against' },
  shareEmailPerHour: { env: 'SHARE_EMAIL_PER_HOUR', schema: envInt(30, 1), doc: 'share e-mails (one per recipient) a user may send per hour' },
  shareEmailPerDay: { env: 'SHARE_EMAIL_PER_DAY', schema: envInt(100, 1), doc: 'share e-mails (one per recipient) a user may send per day' },
});
