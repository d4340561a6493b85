/**
 * Extraction codes and what guards them (issue 14, item 6), shared by the server (which enforces it) and the web
 * app (the share dialog offers only codes long enough; the share page solves the proof of work).
 *
 * The guard has three parts:
 *  - per client (an IPv4 address, an IPv6 /64): 3 wrong codes are free, then each next attempt waits 1, 2, 4, …
 *    seconds (at most an hour), answered at once as "try again in N s"; forgotten a day after the last one;
 *  - per share: the wrong codes of the last one to two hours (everyone's) make a proof of work necessary and ever
 *    harder: 3 are free, then `baseBits` leading zero bits of SHA-256, one more bit for every 2 further failures,
 *    without a ceiling. A correct code with a valid proof is always accepted, whoever sent the wrong ones;
 *  - the code itself: 4 digits (the spec's default), 6 digits (the spec's Korean help), or 8 letters/digits, and a
 *    share may only use a code whose space outlasts its validity against the attacker below.
 *
 * The arithmetic (`maxWrongGuesses`): a botnet of any number of addresses (so the per-client backoff does not bind)
 * with `attackerHashRate` SHA-256 per second in total — 10^11 by default, i.e. 10,000 machines hashing 10^7/s each
 * in native code — spends it greedily on one share. Within an hour, the n-th wrong code counted against the share
 * costs 2^(18 + (n − 3)/2) hashes, and the last hour's failures still count, so the cost of keeping up a rate of x
 * per hour grows like 2^(x) and the rate is only logarithmic in the attacker's power: ~31 wrong codes per hour at
 * 10^11 H/s (~24 at 10^9, ~14 at 10^6). Hence (with ~31/hour):
 *  - 4 digits (10^4): the whole space takes ~13 days → allowed for 1–13 valid days (the default 7: ~5,100 guesses);
 *  - 6 digits (10^6): ~3.7 years → allowed for 1–99 days, not for a permanent share;
 *  - 8 letters/digits (31^8 ≈ 8.5·10^11) or any code with a password (× 62^4, or × 10^4 for a digit password):
 *    more than the 100 years taken as "permanent" → allowed for every share, permanent (valid days 0) included.
 * The price: while such an attack goes on, a newcomer's proof costs about what one of the attacker's guesses does
 * (legit work × attacker rate ≈ attacker compute, for any scheme that never refuses the right code); two quiet hours
 * after it stops, no proof is needed again, and tokens already given out keep working.
 */

export const SHARE_CODE_KINDS = ['digits4', 'digits6', 'alnum8'] as const;
export type ShareCodeKind = (typeof SHARE_CODE_KINDS)[number];

/** Letters and digits of an 8-character code: no 0/o, 1/l/i, so it can be read aloud and typed from paper. */
export const SHARE_CODE_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
export const SHARE_CODE_PATTERNS: Record<ShareCodeKind, RegExp> = {
  digits4: /^[0-9]{4}$/,
  digits6: /^[0-9]{6}$/,
  alnum8: /^[2-9a-hjkmnp-z]{8}$/,
};
export const SHARE_CODE_LENGTH: Record<ShareCodeKind, number> = { digits4: 4, digits6: 6, alnum8: 8 };

/** The kind of a stored code (codes made before kinds existed are 4 digits). */
export function codeKindOf(code: string): ShareCodeKind {
  return SHARE_CODE_PATTERNS.digits6.test(code) ? 'digits6' : SHARE_CODE_PATTERNS.alnum8.test(code) ? 'alnum8' : 'digits4';
}

/** What a visitor typed, as codes are stored: no spaces or dashes, letters in lower case. */
export function normalizeShareCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toLowerCase();
}

/** How many (code, password) pairs a guesser must cover. A password of digits only counts as 10^4 (the update rule). */
export function codeSpace(kind: ShareCodeKind, password = ''): number {
  const code = kind === 'digits4' ? 1e4 : kind === 'digits6' ? 1e6 : SHARE_CODE_ALPHABET.length ** 8;
  if (!password) return code;
  return code * (/^[0-9]+$/.test(password) ? 10 ** password.length : 62 ** password.length);
}

export interface ExtractionModel {
  /** leading zero bits of the first proof (2^18 ≈ 262,000 hashes: ~0.2 s on a desktop browser, ~1 s on a phone) */
  baseBits: number;
  /** one more bit for every this many further failures */
  failuresPerBit: number;
  /** failures of the share (last one to two hours) that need no proof yet */
  freeFailures: number;
  /** the share's failures are counted per window; the previous window still counts */
  windowMs: number;
  /** the attacker of the arithmetic: SHA-256 per second, all machines together */
  attackerHashRate: number;
}

export const EXTRACTION_MODEL: ExtractionModel = { baseBits: 18, failuresPerBit: 2, freeFailures: 3, windowMs: 3_600_000, attackerHashRate: 1e11 };
/** "Permanent" (valid days 0) in the arithmetic. */
export const PERMANENT_HORIZON_DAYS = 100 * 365;

/** Leading zero bits a proof needs when the share has had `failures` wrong codes in the current and previous window. */
export function requiredBits(failures: number, m: ExtractionModel = EXTRACTION_MODEL): number {
  return failures < m.freeFailures ? 0 : m.baseBits + Math.floor((failures - m.freeFailures) / m.failuresPerBit);
}

/**
 * Wrong codes the model's attacker can get answered on one share in `hours`: window by window it spends its hashes
 * on the cheapest next guess (expected cost 2^bits) until the window's budget is gone. The rate is steady after a
 * few windows, so beyond the simulated ones each window adds the average of the last 20.
 */
export function maxWrongGuesses(hours: number, m: ExtractionModel = EXTRACTION_MODEL): number {
  const t = guessTable(m);
  const windows = Math.ceil((hours * 3_600_000) / m.windowMs);
  if (windows < t.cumulative.length) return t.cumulative[windows];
  return Math.ceil(t.cumulative[t.cumulative.length - 1] + (windows - t.cumulative.length + 1) * t.steady);
}

const SIMULATED_WINDOWS = 200;
const tables = new Map<string, { cumulative: number[]; steady: number }>();
/** Wrong codes after 0, 1, … SIMULATED_WINDOWS windows, and the steady rate per window (computed once per model). */
function guessTable(m: ExtractionModel) {
  const key = JSON.stringify(m);
  let t = tables.get(key);
  if (t) return t;
  const budget = (m.attackerHashRate * m.windowMs) / 1000;
  const cumulative = [0];
  let prev = 0;
  let last20 = 0;
  for (let w = 0; w < SIMULATED_WINDOWS; w++) {
    let cur = 0;
    let left = budget;
    for (;;) {
      const bits = requiredBits(prev + cur, m);
      const cost = bits === 0 ? 0 : 2 ** bits;
      if (cost > left) break;
      left -= cost;
      cur++;
    }
    cumulative.push(cumulative[w] + cur);
    if (w >= SIMULATED_WINDOWS - 20) last20 += cur;
    prev = cur;
  }
  t = { cumulative, steady: last20 / 20 };
  tables.set(key, t);
  return t;
}

/** Whether a code of this kind (with this password) outlasts a share valid `validDays` (0: permanent). */
export function codeOutlasts(kind: ShareCodeKind, password: string, validDays: number, m: ExtractionModel = EXTRACTION_MODEL): boolean {
  const days = validDays === 0 ? PERMANENT_HORIZON_DAYS : validDays;
  return maxWrongGuesses(days * 24, m) < codeSpace(kind, password);
}

/** The code kinds a share valid `validDays` (0: permanent) may use, shortest first. */
export function allowedCodeKinds(validDays: number, password = '', m: ExtractionModel = EXTRACTION_MODEL): ShareCodeKind[] {
  return SHARE_CODE_KINDS.filter((k) => codeOutlasts(k, password, validDays, m));
}

/** The longest validity (days, 0 never) a code kind allows without a password; null when it allows permanent shares. */
export function maxValidDays(kind: ShareCodeKind, password = '', m: ExtractionModel = EXTRACTION_MODEL): number | null {
  if (codeOutlasts(kind, password, 0, m)) return null;
  let days = 0;
  while (days < 99 && codeOutlasts(kind, password, days + 1, m)) days++;
  return days;
}

// ---- proof of work: the server hands out a challenge, the browser finds a proof ----

/** What is hashed: SHA-256 of `${challenge}:${proof}` must start with `bits` zero bits. */
export function proofMessage(challenge: string, proof: string): string {
  return `${challenge}:${proof}`;
}

/** Leading zero bits of a hash. */
export function leadingZeroBits(hash: Uint8Array): number {
  let n = 0;
  for (const byte of hash) {
    if (byte === 0) {
      n += 8;
      continue;
    }
    return n + Math.clz32(byte) - 24;
  }
  return n;
}
