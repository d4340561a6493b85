import { CadError } from '../model/drawing.ts';

export const BINARY_SENTINEL = 'AutoCAD Binary DXF\r\n\x1a\0';

/**
 * Group-code pairs straight from the bytes: no whole-file string is ever built. ASCII lines are scanned by
 * byte; numbers are parsed from the bytes; strings are decoded with the file's code page (set once the header
 * told it). Every loop advances, so a corrupt file ends with an error, never a hang.
 */
export interface PairReader {
  /** next pair, or false at the end; the pair is in `code` / `value` */
  next(): boolean;
  /**
   * Past pairs nothing takes (the rest of a skipped record or section), up to and including the next 0 pair,
   * which is read as next() reads it; false at the end. The same pairs and errors as calling next() until then,
   * but the skipped values are neither decoded nor parsed.
   */
  skipRecord(): boolean;
  /**
   * Past whole records up to the next 0 pair whose value is one of `names`, which is then the current pair as
   * after next(); false at the end. In a file held whole in memory the names are searched for in the bytes (a
   * section of thousands of small records nobody reads, such as OBJECTS, costs a few native searches); elsewhere
   * record by record. What lies between is not checked: a corrupt record there is passed over, not reported.
   */
  skipToRecord(names: readonly string[]): boolean;
  /**
   * The pairs of a record into `sink` (999 comments left out) up to the next 0 pair, which is then the current
   * pair as after next(); false at the end. The same pairs as next() would give, without handing each through
   * the reader's fields.
   */
  readPairs(sink: PairSink): boolean;
  code: number;
  /** the value as its type: `num` when `isNum`, else `str` (separate fields: a number is never boxed) */
  isNum: boolean;
  num: number;
  str: string;
  readonly value: string | number;
  setDecoder(d: TextDecoder): void;
  readonly offset: number;
}

/** where readPairs puts a record's pairs */
export interface PairSink {
  pushNum(code: number, value: number): void;
  pushStr(code: number, value: string): void;
}

export function isBinaryDxf(bytes: Uint8Array): boolean {
  if (bytes.length < 22) return false;
  for (let i = 0; i < 22; i++) if (bytes[i] !== BINARY_SENTINEL.charCodeAt(i)) return false;
  return true;
}

/** Type of a group code's value (DXF reference, "Group code value types"). */
export function valueKind(code: number): 'string' | 'double' | 'int16' | 'int32' | 'int64' | 'bool' | 'binary' {
  if (code < 10) return 'string';
  if (code < 60) return 'double';
  if (code < 80) return 'int16';
  if (code >= 90 && code < 100) return 'int32';
  if (code === 100 || code === 101 || code === 102 || code === 105) return 'string';
  if (code >= 110 && code < 150) return 'double';
  if (code >= 160 && code < 170) return 'int64';
  if (code >= 170 && code < 180) return 'int16';
  if (code >= 210 && code < 240) return 'double';
  if (code >= 270 && code < 290) return 'int16';
  if (code >= 290 && code < 300) return 'bool';
  if (code >= 310 && code < 320) return 'binary';
  if (code >= 300 && code < 370) return 'string';
  if (code >= 370 && code < 390) return 'int16';
  if (code >= 390 && code < 400) return 'string';
  if (code >= 400 && code < 410) return 'int16';
  if (code >= 410 && code < 420) return 'string';
  if (code >= 420 && code < 430) return 'int32';
  if (code >= 430 && code < 440) return 'string';
  if (code >= 440 && code < 460) return 'int32';
  if (code >= 460 && code < 470) return 'double';
  if (code >= 470 && code < 482) return 'string';
  if (code === 999) return 'string';
  if (code === 1004) return 'binary';
  if (code >= 1000 && code < 1010) return 'string';
  if (code >= 1010 && code < 1060) return 'double';
  if (code >= 1060 && code < 1071) return 'int16';
  if (code === 1071) return 'int32';
  return 'string';
}

/** valueKind as a table: one byte per group code below 1072 (0 string, 1 number, 2 binary); above: string */
const K_STRING = 0;
const K_NUMBER = 1;
const K_BINARY = 2;
/** `high` of a long string value whose first bytes were ASCII (any value above 127 means "not ASCII") */
const LONG = 256;
const KINDS = new Uint8Array(1072).map((_, code) => {
  const k = valueKind(code);
  return k === 'string' ? K_STRING : k === 'binary' ? K_BINARY : K_NUMBER;
});

/** 10^k for k ≤ 22 are exact doubles: m / 10^k is then the correctly rounded value, the same as Number(text) */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

const SPLIT = 134217729; // 2^27 + 1 (Veltkamp)
let productLow = 0;
/** a · b: returns the rounded product and leaves in productLow what rounding lost (Dekker: exact, no FMA needed) */
function twoProduct(a: number, b: number): number {
  const p = a * b;
  let c = SPLIT * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLIT * b;
  const bh = c - (c - b);
  const bl = b - bh;
  productLow = ah * bh - p + ah * bl + al * bh + al * bl;
  return p;
}

/** the unit in the last place of a double, by its exponent field */
const ULP = Float64Array.from({ length: 2048 }, (_, e) => 2 ** (Math.max(e, 1) - 1075));
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * (hi · scale + lo) / divisor correctly rounded, for integers whose sum is beyond 2^53 (17-digit decimals, as
 * Python, ezdxf and .NET write them) and a power of ten divisor ≤ 10^22: a double-double quotient, rounded once.
 * NaN where the quotient lies within a hair of half-way between two doubles (or at a power of two): the caller
 * then asks Number(), which settles ties exactly.
 */
export function exactQuotient(hi: number, scale: number, lo: number, divisor: number): number {
  // the mantissa as s + t exactly
  const m1 = twoProduct(hi, scale);
  const e1 = productLow;
  const s = m1 + lo;
  const bv = s - m1;
  const t = m1 - (s - bv) + (lo - bv) + e1;
  const q = s / divisor;
  // what q misses, from the exact remainder s + t − q · divisor
  const p1 = twoProduct(q, divisor);
  const q2 = (s - p1 - productLow + t) / divisor;
  const res = q + q2;
  const err = q2 - (res - q);
  f64[0] = res;
  const high = u32[HIGH_WORD];
  if ((high & 0xfffff) === 0 && u32[1 - HIGH_WORD] === 0) return NaN;
  const ulp = ULP[(high >>> 20) & 0x7ff];
  if (Math.abs(Math.abs(err) - ulp / 2) < ulp * 1e-6) return NaN;
  return res;
}

/**
 * Short ASCII strings seen before are handed out again (layer names, subclass markers, owners, header variable
 * names): less garbage. One table for every drawing read in this process, so names that every drawing has are
 * the same string objects from one parse to the next (property keys the engine has already internalised).
 */
const INTERN_MAX = 40;
const INTERN_SLOTS = 4096;
const interned: (string | undefined)[] = new Array(INTERN_SLOTS).fill(undefined);

/**
 * Node's Buffer, where there is one (the reader also runs without): a native line search (memchr), a native search
 * for a record's name (skipToRecord) and latin1 decoding of ASCII values without a TextDecoder call.
 */
type NodeBytes = Uint8Array & { latin1Slice(start: number, end: number): string; indexOf(value: string, byteOffset: number, encoding: 'latin1'): number };
const NodeBuffer = (globalThis as unknown as { Buffer?: { from(a: ArrayBufferLike, offset: number, length: number): NodeBytes } }).Buffer;
const nodeView = (u: Uint8Array): NodeBytes | null => (NodeBuffer ? NodeBuffer.from(u.buffer, u.byteOffset, u.byteLength) : null);
/** a byte above ASCII in a latin1-decoded value: that value needs the file's decoder */
const NOT_ASCII = /[\x80-\xff]/;

/**
 * Where the ASCII reader's bytes come from: the whole file at once, or windows of a file read as it goes
 * (`fill`), so a 100 MB drawing is never held in memory next to its model.
 */
export interface ByteSource {
  /** copies the next bytes of the file into `into` from `at`; returns how many (0 at the end) */
  fill(into: Uint8Array, at: number): number;
}

/** `source`: the bytes are read through it in windows of `windowBytes` (grown for a longer line) */
export function createAsciiReader(input: Uint8Array, decoder: TextDecoder, source?: ByteSource, windowBytes = 1 << 22): PairReader {
  // streamed input: this much is kept ahead, so the fast path never runs off the window on ordinary lines
  const margin = Math.min(65536, windowBytes >> 2);
  let bytes = input;
  /** the same bytes as a Node Buffer (null without Node): indexOf is memchr there, latin1Slice decodes ASCII */
  let buf = nodeView(bytes);
  let pos = 0;
  /** valid bytes in `bytes` */
  let n = bytes.length;
  /** bytes of the file before bytes[0] (streamed input) */
  let base = 0;
  let eof = !source;
  // skip a UTF-8 byte order mark
  if (source) refill();
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) pos = 3;
  let dec = decoder;

  /**
   * Keeps bytes[pos..n) and reads more behind them (a window too small for the line at hand is doubled). The
   * window is then full, or the file has ended and a 0 byte stands after the last one: the fast path never
   * reads stale bytes as part of a line.
   */
  function refill(): void {
    const keep = n - pos;
    if (keep > bytes.length / 2 || bytes === input) {
      const grown = new Uint8Array(Math.max(windowBytes, bytes === input ? 0 : bytes.length * 2));
      grown.set(bytes.subarray(pos, n), 0);
      bytes = grown;
      buf = nodeView(bytes);
    } else bytes.copyWithin(0, pos, n);
    base += pos;
    n = keep;
    pos = 0;
    while (n < bytes.length) {
      const got = source!.fill(bytes, n);
      if (got <= 0) {
        eof = true;
        bytes[n] = 0;
        break;
      }
      n += got;
    }
  }

  /** where the line starting at p ends (its \n, or n) */
  function lineEnd(p: number): number {
    let i = buf ? buf.indexOf(10, p) : bytes.indexOf(10, p);
    if (i < 0 || i >= n) i = n;
    return i;
  }

  function parseIntRange(s: number, e: number): number {
    while (s < e && (bytes[s] === 32 || bytes[s] === 9)) s++;
    while (e > s && (bytes[e - 1] === 32 || bytes[e - 1] === 9)) e--;
    let neg = false;
    if (bytes[s] === 45) {
      neg = true;
      s++;
    } else if (bytes[s] === 43) s++;
    if (s >= e) return NaN;
    let v = 0;
    for (let i = s; i < e; i++) {
      const c = bytes[i] - 48;
      if (c < 0 || c > 9) return NaN;
      v = v * 10 + c;
    }
    return neg ? -v : v;
  }

  /** any number text Number() understands (exponents, odd spacing); what it does not is 0 */
  function parseNumberSlow(s: number, e: number): number {
    const iv = parseIntRange(s, e);
    if (!Number.isNaN(iv)) return iv;
    let str = '';
    for (let i = s; i < e; i++) str += String.fromCharCode(bytes[i]);
    const v = Number(str.trim());
    return Number.isNaN(v) ? 0 : v;
  }

  /**
   * A decimal of more digits than a double holds (16–23 significant: Python, ezdxf and .NET write 17): the
   * mantissa is hi · 10^loDigits + lo; the same double as Number() of the text.
   */
  function longDecimal(hi: number, loDigits: number, lo: number, decimals: number, ns: number, ne: number): number {
    const v = exactQuotient(hi, POW10[loDigits], lo, POW10[decimals]);
    return Number.isNaN(v) ? Number(String.fromCharCode.apply(null, bytes.subarray(ns, ne) as unknown as number[])) : v;
  }

  /** an integer beyond 2^53: summed digit by digit, as this reader always did */
  function bigInteger(ns: number, ne: number): number {
    let v = 0;
    for (let i = ns; i < ne; i++) v = v * 10 + bytes[i] - 48;
    return v;
  }

  /** a short ASCII string; handles (2–8 characters) are made without a subarray */
  function ascii(s: number, len: number): string {
    const b = bytes;
    switch (len) {
      case 1: return String.fromCharCode(b[s]);
      case 2: return String.fromCharCode(b[s], b[s + 1]);
      case 3: return String.fromCharCode(b[s], b[s + 1], b[s + 2]);
      case 4: return String.fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3]);
      case 5: return String.fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4]);
      case 6: return String.fromCharCode(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5]);
      default: return buf ? buf.latin1Slice(s, s + len) : String.fromCharCode.apply(null, b.subarray(s, s + len) as unknown as number[]);
    }
  }

  function decodeString(s: number, e: number, intern_: boolean): string {
    const len = e - s;
    if (len === 0) return '';
    if (len > INTERN_MAX) return decodeLong(s, e);
    // ASCII is the same in every code page DXF uses: short ASCII strings need no decoder
    let h = 0;
    for (let i = s; i < e; i++) {
      const c = bytes[i];
      if (c > 127) return dec.decode(bytes.subarray(s, e));
      h = (Math.imul(h, 31) + c) | 0;
    }
    return intern_ ? intern(s, len, h) : ascii(s, len);
  }

  /**
   * A long value (text, hex of binary chunks): ASCII is the same in every code page DXF uses, so an ASCII value
   * is decoded as latin1 (natively, no decoder call) and only a value with other bytes goes to the file's decoder.
   */
  function decodeLong(s: number, e: number): string {
    if (buf) {
      const str = buf.latin1Slice(s, e);
      if (!NOT_ASCII.test(str)) return str;
    }
    return dec.decode(bytes.subarray(s, e));
  }

  /** the string of bytes[s, s + len) (ASCII, hash h): the one handed out before if it is the same */
  function intern(s: number, len: number, h: number): string {
    const slot = (h ^ (h >>> 13) ^ len) & (INTERN_SLOTS - 1);
    const hit = interned[slot];
    if (hit !== undefined && hit.length === len) {
      const b = bytes;
      let i = 0;
      while (i < len && hit.charCodeAt(i) === b[s + i]) i++;
      if (i === len) return hit;
    }
    const str = ascii(s, len);
    interned[slot] = str;
    return str;
  }

  /** the general path for a pair the fast path did not take: exactly the line rules of the format */
  function nextSlow(): boolean {
    if (pos >= n) return false;
    const ce = lineEnd(pos);
    if (ce >= n && !eof) return (refill(), reader.next());
    const cs = pos;
    let cEnd = ce;
    if (cEnd > cs && bytes[cEnd - 1] === 13) cEnd--;
    const code = parseIntRange(cs, cEnd);
    if (Number.isNaN(code)) {
      // a blank trailing line after EOF is fine; anything else is corruption
      if (cEnd === cs && ce + 1 >= n && eof) {
        pos = ce + 1;
        return false;
      }
      throw new CadError('cad.parseFailed', undefined, `bad group code at byte ${base + cs}`);
    }
    const vs = ce + 1;
    if (vs >= n) {
      if (!eof) return (refill(), reader.next());
      throw new CadError('cad.parseFailed', undefined, `file ends after group code ${code}`);
    }
    const ve = lineEnd(vs);
    if (ve >= n && !eof) return (refill(), reader.next());
    pos = ve + 1;
    let vEnd = ve;
    if (vEnd > vs && bytes[vEnd - 1] === 13) vEnd--;
    const kind = code >= 0 && code < 1072 ? KINDS[code] : K_STRING;
    reader.code = code;
    if (kind === K_NUMBER) {
      reader.isNum = true;
      reader.num = parseNumberSlow(vs, vEnd);
    } else {
      reader.isNum = false;
      reader.str = decodeString(vs, vEnd, code !== 5 && code !== 105);
    }
    return true;
  }

  /** nextSlow for step(): 0 the end, 1 the pair is in the reader's fields (return it), 2 it went into the sink */
  function slowStep(sink: PairSink | null): number {
    if (!nextSlow()) return 0;
    const code = reader.code;
    if (sink === null || code === 0) return 1;
    if (code !== 999) {
      if (reader.isNum) sink.pushNum(code, reader.num);
      else sink.pushStr(code, reader.str);
    }
    return 2;
  }

  /**
   * The next pair (sink null: into the reader's fields), or with a sink every pair up to the next 0 pair into
   * it and that 0 pair into the fields. One loop for both, so a record's pairs never leave it one by one.
   */
  function step(sink: PairSink | null): boolean {
    for (;;) {
      if (!eof && n - pos < margin) refill();
      // locals: the optimiser keeps them in registers (the closure's `bytes` and `n` change on refill)
      const b = bytes;
      const n_ = n;
      // fast path: "<spaces>digits\r?\n" then the value; anything unusual goes to nextSlow with pos untouched
      let p = pos;
      let c = b[p];
      while (c === 32) c = b[++p];
      if (c < 48 || c > 57) {
        const k = slowStep(sink);
        if (k === 2) continue;
        return k === 1;
      }
      let code = 0;
      do {
        code = code * 10 + c - 48;
        c = b[++p];
      } while (c >= 48 && c <= 57);
      if (c === 13) c = b[++p];
      if (c !== 10 || ++p >= n_) {
        const k = slowStep(sink);
        if (k === 2) continue;
        return k === 1;
      }
      const kind = code < 1072 ? KINDS[code] : K_STRING;
      if (kind === K_NUMBER) {
        // sign, digits, a point, digits. The first 15 digits go to m, any further ones to lo: both stay exact
        c = b[p];
        while (c === 32) c = b[++p];
        let neg = false;
        if (c === 45) {
          neg = true;
          c = b[++p];
        }
        const ns = p;
        let m = 0;
        let lo = 0;
        let loDigits = 0;
        let digits = 0;
        while (c >= 48 && c <= 57) {
          if (digits < 15) m = m * 10 + c - 48;
          else {
            lo = lo * 10 + c - 48;
            loDigits++;
          }
          digits++;
          c = b[++p];
        }
        let decimals = 0;
        if (c === 46) {
          c = b[++p];
          while (c >= 48 && c <= 57) {
            if (digits + decimals < 15) m = m * 10 + c - 48;
            else {
              lo = lo * 10 + c - 48;
              loDigits++;
            }
            decimals++;
            c = b[++p];
          }
        }
        const ne = p;
        while (c === 32) c = b[++p];
        if (c === 13) c = b[++p];
        if (c !== 10 || digits + decimals === 0 || decimals > 22 || loDigits > 8) {
          const k = slowStep(sink);
          if (k === 2) continue;
          return k === 1;
        }
        let v: number;
        if (loDigits === 0) v = decimals ? m / POW10[decimals] : m;
        else if (m * POW10[loDigits] <= 9007199254740991 - lo) {
          const whole = m * POW10[loDigits] + lo;
          v = decimals ? whole / POW10[decimals] : whole;
        } else v = decimals ? longDecimal(m, loDigits, lo, decimals, ns, ne) : bigInteger(ns, ne);
        pos = p + 1;
        if (neg) v = -v;
        if (sink !== null && code !== 0) {
          if (code !== 999) sink.pushNum(code, v);
          continue;
        }
        reader.code = code;
        reader.isNum = true;
        reader.num = v;
        return true;
      }
      // a string: one pass finds the line end, checks for ASCII and hashes for the intern table
      const s = p;
      let h = 0;
      let high = 0;
      c = b[p];
      const hashEnd = Math.min(s + INTERN_MAX + 1, n_);
      while (c !== 10 && c !== 13 && p < hashEnd) {
        high |= c;
        h = (Math.imul(h, 31) + c) | 0;
        c = b[++p];
      }
      if (p === hashEnd && p < n_ && c !== 10 && c !== 13) {
        // a long line (text, hex of binary chunks): decoded whole below, so only its end is looked for
        let i = buf ? buf.indexOf(10, p) : b.indexOf(10, p);
        if (i < 0 || i > n_) i = n_;
        p = i > p && b[i - 1] === 13 ? i - 1 : i;
        c = b[p];
        // ASCII so far: decodeLong checks the rest
        if (high < 128) high = LONG;
      }
      const e = p;
      if (c === 13) {
        if (b[p + 1] !== 10 || p + 1 >= n_) {
          // a lone CR belongs to the value
          const k = slowStep(sink);
          if (k === 2) continue;
          return k === 1;
        }
        p++;
      } else if (p >= n_ && !eof) {
        const k = slowStep(sink);
        if (k === 2) continue;
        return k === 1;
      }
      pos = p + 1;
      const len = e - s;
      let str: string;
      if (len === 0) str = '';
      else if (high > 127) str = high === LONG ? decodeLong(s, e) : dec.decode(b.subarray(s, e));
      else if (len > INTERN_MAX) str = decodeLong(s, e);
      else if (code === 5 || code === 105) str = ascii(s, len);
      else str = intern(s, len, h);
      if (sink !== null && code !== 0) {
        if (code !== 999) sink.pushStr(code, str);
        continue;
      }
      reader.code = code;
      reader.isNum = false;
      reader.str = str;
      return true;
    }
  }

  const reader: PairReader = {
    code: 0,
    isNum: false,
    num: 0,
    str: '',
    get value() {
      return reader.isNum ? reader.num : reader.str;
    },
    get offset() {
      return base + pos;
    },
    setDecoder(d) {
      dec = d;
    },
    skipRecord() {
      for (;;) {
        if (!eof && n - pos < margin) refill();
        const b = bytes;
        const n_ = n;
        // streamed: stop where the window needs topping up (as the check above: fewer than margin bytes left);
        // the whole file: at its end
        const stop = eof ? n_ : n_ - margin + 1;
        // pair after pair in locals; a 0 pair (its value is wanted) or anything unusual goes to next() from `at`
        let p = pos;
        let at = p;
        while (p < stop) {
          // "<spaces>digits\r?\n" as in next()
          let c = b[p];
          while (c === 32) c = b[++p];
          if (c < 49 || c > 57) break;
          do c = b[++p];
          while (c >= 48 && c <= 57);
          if (c === 13) c = b[++p];
          if (c !== 10 || ++p >= n_) break;
          // every value line ends at its \n (a lone CR belongs to the value), whatever its type: short lines by
          // a loop, long ones (text, hex of binary chunks) natively
          const lim = p + 16 < n_ ? p + 16 : n_;
          c = b[p];
          while (c !== 10 && p < lim) c = b[++p];
          if (c !== 10 || p >= n_) {
            p = buf ? buf.indexOf(10, p) : b.indexOf(10, p);
            if (p < 0 || p >= n_) break;
          }
          at = ++p;
        }
        pos = at;
        if (at < stop || at >= n_) {
          if (!reader.next()) return false;
          if (reader.code === 0) return true;
        }
      }
    },
    skipToRecord(names) {
      if (!eof || !buf) return skipToRecordBySkipping(reader, names);
      let best = -1;
      for (const name of names) {
        const at = recordAt(name);
        if (at >= 0 && (best < 0 || at < best)) best = at;
      }
      if (best < 0) {
        pos = n;
        return false;
      }
      pos = best;
      return reader.next();
    },
    next() {
      return step(null);
    },
    readPairs(sink) {
      return step(sink);
    },
  };

  /** per name, where its next record starts (its 0 line), or -1 for none to the end: each name searched once */
  const found = new Map<string, number>();

  /** where the next "0 / name" pair at or after pos begins, or -1 */
  function recordAt(name: string): number {
    const known = found.get(name);
    if (known !== undefined && (known < 0 || known >= pos)) return known;
    // the search key: at most 6 characters (a shorter pattern is found by a native scan for its first character,
    // a longer one by Boyer-Moore-Horspool, which crawls where the last character is frequent) from the name's first
    // character that is not a hex digit. Hex digits fill the binary chunks (310 groups) of many files: through
    // 1.5 MB of them, ENDSEC took 1.4 ms and NDSEC 0.05 ms; IMAGEDEF to the end 2.6 ms, IMAGED 0.05 ms
    const skip = Math.max(0, name.search(/[^0-9A-F]/));
    const key = name.slice(skip, skip + 6);
    let from = pos + skip;
    for (;;) {
      const k = buf!.indexOf(key, from, 'latin1');
      if (k < 0 || k >= n) {
        found.set(name, -1);
        return -1;
      }
      from = k + 1;
      const i = k - skip;
      const end = i + name.length;
      // the name is a whole line …
      if (i === 0 || bytes[i - 1] !== 10) continue;
      let same = true;
      for (let j = 0; j < name.length; j++) if (bytes[i + j] !== name.charCodeAt(j)) same = false;
      if (!same) continue;
      if (!(end >= n || bytes[end] === 10 || (bytes[end] === 13 && bytes[end + 1] === 10))) continue;
      // … after a 0 code line (a text line is a value in a well-formed file: the line before is its group code)
      const start = codeLineStart(i - 1);
      if (start < pos || start < 0) continue;
      found.set(name, start);
      return start;
    }
  }

  /** the start of the line ending at the \n at `nl` when that line is the group code 0, else -1 */
  function codeLineStart(nl: number): number {
    let e = nl;
    if (e > 0 && bytes[e - 1] === 13) e--;
    let s = e;
    while (s > 0 && bytes[s - 1] !== 10) s--;
    const code = parseIntRange(s, e);
    return code === 0 ? s : -1;
  }
  return reader;
}

/** skipToRecord where the bytes cannot be searched: record by record */
function skipToRecordBySkipping(r: PairReader, names: readonly string[]): boolean {
  while (r.skipRecord()) if (!r.isNum && names.includes(r.str)) return true;
  return false;
}

export function createBinaryReader(bytes: Uint8Array, decoder: TextDecoder): PairReader {
  let pos = 22;
  const n = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let dec = decoder;
  // R12 binary files use 1-byte group codes (255 escapes a 2-byte one); later versions always 2 bytes.
  // The first code is 0 followed by "SECTION": a 2-byte file has a second 0 byte there.
  const twoByte = bytes[22] === 0 && bytes[23] === 0;

  function need(k: number) {
    if (pos + k > n) throw new CadError('cad.parseFailed', undefined, `binary DXF truncated at byte ${pos}`);
  }
  function cstring(): string {
    const end = bytes.indexOf(0, pos);
    if (end < 0) throw new CadError('cad.parseFailed', undefined, `unterminated string at byte ${pos}`);
    const s = dec.decode(bytes.subarray(pos, end));
    pos = end + 1;
    return s;
  }

  const reader: PairReader = {
    code: 0,
    isNum: false,
    num: 0,
    str: '',
    get value() {
      return reader.isNum ? reader.num : reader.str;
    },
    get offset() {
      return pos;
    },
    setDecoder(d) {
      dec = d;
    },
    skipRecord() {
      while (reader.next()) if (reader.code === 0) return true;
      return false;
    },
    skipToRecord(names) {
      return skipToRecordBySkipping(reader, names);
    },
    readPairs(sink) {
      while (reader.next()) {
        const code = reader.code;
        if (code === 0) return true;
        if (code === 999) continue;
        if (reader.isNum) sink.pushNum(code, reader.num);
        else sink.pushStr(code, reader.str);
      }
      return false;
    },
    next() {
      if (pos >= n) return false;
      let code: number;
      if (twoByte) {
        need(2);
        code = view.getUint16(pos, true);
        pos += 2;
      } else {
        need(1);
        code = bytes[pos++];
        if (code === 255) {
          need(2);
          code = view.getUint16(pos, true);
          pos += 2;
        }
      }
      const kind = valueKind(code);
      let value: string | number;
      switch (kind) {
        case 'string':
          value = cstring();
          break;
        case 'double':
          need(8);
          value = view.getFloat64(pos, true);
          pos += 8;
          break;
        case 'int16':
          need(2);
          value = view.getInt16(pos, true);
          pos += 2;
          break;
        case 'int32':
          need(4);
          value = view.getInt32(pos, true);
          pos += 4;
          break;
        case 'int64':
          need(8);
          value = Number(view.getBigInt64(pos, true));
          pos += 8;
          break;
        case 'bool':
          need(1);
          value = bytes[pos++];
          break;
        case 'binary': {
          need(1);
          const len = bytes[pos++];
          need(len);
          let hex = '';
          for (let i = 0; i < len; i++) hex += bytes[pos + i].toString(16).padStart(2, '0');
          pos += len;
          value = hex;
          break;
        }
      }
      reader.code = code;
      if (typeof value === 'number') {
        reader.isNum = true;
        reader.num = value;
      } else {
        reader.isNum = false;
        reader.str = value;
      }
      return true;
    },
  };
  return reader;
}
