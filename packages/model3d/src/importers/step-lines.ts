// Our own reader of a STEP physical file's (ISO 10303-21: IFC, STEP) instance lines, for the lines an importer reads
// besides geometry (an IFC's relations, property sets, names). Why not web-ifc's GetLines: it builds each line's JS
// object one attribute at a time through embind, ~10 s of CPU for the ~470 000 property lines of a 50 MB IFC, twice
// web-ifc's own geometry time. Here the file's bytes are scanned once (each `#id=TYPE(…);` indexed by its offset and
// type, nothing decoded), and a line is decoded only when asked for. Decoding never follows a reference, so a file
// whose references form a cycle cannot make the reader loop.

/** An attribute value: `$` and `*` are null; `#12` a StepRef; `.T.` a StepEnum; `IFCLABEL('x')` a StepTyped. */
export type StepValue = null | number | string | StepRef | StepEnum | StepTyped | StepValue[];
export interface StepRef {
  ref: number;
}
export interface StepEnum {
  enum: string;
}
export interface StepTyped {
  type: string;
  value: StepValue;
}

/** a line the reader cannot make sense of: its id (when known), the byte offset and what was wrong */
export class StepSyntaxError extends Error {
  constructor(message: string, readonly offset: number, readonly id?: number) {
    super(`${id !== undefined ? `line #${id}: ` : ''}${message} (at byte ${offset})`);
    this.name = 'StepSyntaxError';
  }
}

const C = (s: string) => s.charCodeAt(0);
const HASH = C('#'), EQ = C('='), QUOTE = C("'"), DQUOTE = C('"'), SEMI = C(';'), LP = C('('), RP = C(')'), COMMA = C(',');
const DOLLAR = C('$'), STAR = C('*'), DOT = C('.'), SLASH = C('/'), BACKSLASH = C('\\'), MINUS = C('-'), PLUS = C('+');
const isSpace = (b: number) => b === 32 || b === 10 || b === 13 || b === 9;
const isDigit = (b: number) => b >= 48 && b <= 57;
/** A–Z, a–z, 0–9, _ : the characters of an entity or type name */
const isNameChar = (b: number) => (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || isDigit(b) || b === 95;
const hexValue = (b: number) => (isDigit(b) ? b - 48 : b >= 65 && b <= 70 ? b - 55 : b >= 97 && b <= 102 ? b - 87 : -1);

const latin1 = (bytes: Uint8Array, from: number, to: number): string => {
  let s = '';
  for (let i = from; i < to; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(to, i + 8192)) as unknown as number[]);
  return s;
};
const utf8 = new TextDecoder('utf-8');

/**
 * The instance lines of a STEP physical file, indexed by id and type. `ids(type)` lists a type's lines (its name as the
 * file writes it, upper case: 'IFCRELAGGREGATES'); `get(id)` decodes one line's attributes; `type(id)` its type.
 */
export class StepLines {
  private readonly bytes: Uint8Array;
  /** per line, in the file's order: its id, the offset of its type name, its type (an index into typeNames) */
  private lineIds: Int32Array;
  private lineStarts: Uint32Array;
  private lineTypes: Uint16Array;
  private count = 0;
  private readonly typeNames: string[] = [];
  /** id → line index: dense when the ids are (the usual case), a map when they are sparse */
  private denseIndex: Int32Array | null = null;
  private sparseIndex: Map<number, number> | null = null;
  private readonly byType = new Map<string, number[]>();

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    const guess = Math.max(1024, (bytes.length / 48) | 0);
    this.lineIds = new Int32Array(guess);
    this.lineStarts = new Uint32Array(guess);
    this.lineTypes = new Uint16Array(guess);
    this.scan();
  }

  /** the number of instance lines */
  get size(): number {
    return this.count;
  }

  /** the ids of the lines of one type (upper case, as in the file), in the file's order */
  ids(type: string): number[] {
    const name = type.toUpperCase();
    let list = this.byType.get(name);
    if (!list) {
      list = [];
      const t = this.typeNames.indexOf(name);
      if (t >= 0) for (let i = 0; i < this.count; i++) if (this.lineTypes[i] === t) list.push(this.lineIds[i]);
      this.byType.set(name, list);
    }
    return list;
  }

  has(id: number): boolean {
    return this.lineOf(id) >= 0;
  }

  /** the line's type name, upper case as in the file ('' for a complex instance `#1=(A()B());`), or null if absent */
  type(id: number): string | null {
    const i = this.lineOf(id);
    return i < 0 ? null : this.typeNames[this.lineTypes[i]];
  }

  /** the line's attributes (null if the file has no such line); a line that is not valid STEP throws StepSyntaxError */
  get(id: number): StepValue[] | null {
    const i = this.lineOf(id);
    if (i < 0) return null;
    const p = new LineParser(this.bytes, this.lineStarts[i], id);
    return p.entity();
  }

  private lineOf(id: number): number {
    if (this.denseIndex) return id >= 0 && id < this.denseIndex.length ? this.denseIndex[id] : -1;
    return this.sparseIndex?.get(id) ?? -1;
  }

  private push(id: number, start: number, type: number) {
    if (this.count === this.lineIds.length) {
      const grow = <T extends Int32Array | Uint32Array | Uint16Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.lineIds = grow(this.lineIds);
      this.lineStarts = grow(this.lineStarts);
      this.lineTypes = grow(this.lineTypes);
    }
    this.lineIds[this.count] = id;
    this.lineStarts[this.count] = start;
    this.lineTypes[this.count] = type;
    this.count++;
  }

  private scan() {
    const b = this.bytes;
    const n = b.length;
    let pos = dataSection(b, 0);
    if (pos < 0) throw new StepSyntaxError('no DATA section', 0);
    // type names interned by a hash of their bytes, checked against the stored name (no string made per line)
    const typesByHash = new Map<number, number[]>();
    let maxId = 0;
    let nextQuote = -1, nextDquote = -1, nextSlash = -1;
    for (;;) {
      pos = skipSpaceAndComments(b, pos);
      if (pos >= n) throw new StepSyntaxError('the DATA section has no ENDSEC', pos);
      if (b[pos] !== HASH) {
        if (startsWithAscii(b, pos, 'ENDSEC')) {
          // another DATA section may follow (ISO 10303-21 edition 3)
          const next = dataSection(b, pos + 6);
          if (next < 0) break;
          pos = next;
          continue;
        }
        throw new StepSyntaxError(`expected '#' at the start of an instance, found '${String.fromCharCode(b[pos])}'`, pos);
      }
      const lineStart = pos;
      pos++;
      let id = 0;
      const digits = pos;
      while (pos < n && isDigit(b[pos])) id = id * 10 + (b[pos++] - 48);
      if (pos === digits || id > 0x7fffffff) throw new StepSyntaxError('an instance without a valid id', lineStart);
      pos = skipSpaceAndComments(b, pos);
      if (b[pos] !== EQ) throw new StepSyntaxError(`expected '=' after #${id}`, pos, id);
      pos = skipSpaceAndComments(b, pos + 1);
      const nameStart = pos;
      let hash = 0x811c9dc5;
      while (pos < n && isNameChar(b[pos])) {
        hash = Math.imul(hash ^ (b[pos] & 0xdf), 0x01000193);
        pos++;
      }
      let type = -1;
      const candidates = typesByHash.get(hash);
      if (candidates) for (const t of candidates) if (sameName(b, nameStart, pos, this.typeNames[t])) type = t;
      if (type < 0) {
        type = this.typeNames.push(latin1(b, nameStart, pos).toUpperCase()) - 1;
        if (type > 0xffff) throw new StepSyntaxError('more than 65 535 entity types', nameStart, id);
        typesByHash.set(hash, [...(candidates ?? []), type]);
      }
      this.push(id, nameStart, type);
      if (id > maxId) maxId = id;
      // to the line's ';', outside strings and comments: the next ';', quote and slash found by indexOf (native, a
      // byte loop in JavaScript was most of the scan), the quotes' and slashes' kept until passed
      for (;;) {
        const semi = b.indexOf(SEMI, pos);
        if (semi < 0) throw new StepSyntaxError('the instance has no closing ;', lineStart, id);
        if (nextQuote < pos) nextQuote = after(b, QUOTE, pos);
        if (nextDquote < pos) nextDquote = after(b, DQUOTE, pos);
        if (nextSlash < pos) nextSlash = after(b, SLASH, pos);
        const special = Math.min(nextQuote, nextDquote, nextSlash);
        if (special > semi) {
          pos = semi + 1;
          break;
        }
        if (special === nextSlash) {
          pos = b[special + 1] === STAR ? skipComment(b, special) : special + 1;
          continue;
        }
        // a string: '' inside it is two quotes, leaving it and entering again
        const close = b.indexOf(b[special], special + 1);
        if (close < 0) throw new StepSyntaxError('a string is not closed', lineStart, id);
        pos = close + 1;
      }
    }
    if (maxId <= this.count * 4 + 1024) {
      const dense = new Int32Array(maxId + 1).fill(-1);
      for (let i = 0; i < this.count; i++) dense[this.lineIds[i]] = i;
      this.denseIndex = dense;
    } else {
      const sparse = new Map<number, number>();
      for (let i = 0; i < this.count; i++) sparse.set(this.lineIds[i], i);
      this.sparseIndex = sparse;
    }
  }
}

/**
 * the offset after the next `DATA;` (or edition 3's `DATA('name',(schemas));`) statement from `from`, -1 if none: a
 * DATA that starts a statement (after a ';'), so a header string holding the word is passed over
 */
function dataSection(b: Uint8Array, from: number): number {
  for (let at = findAscii(b, 'DATA', from); at >= 0; at = findAscii(b, 'DATA', at + 4)) {
    let before = at - 1;
    while (before >= 0 && isSpace(b[before])) before--;
    if (before >= 0 && b[before] !== SEMI) continue;
    const after = skipSpaceAndComments(b, at + 4);
    if (b[after] === SEMI) return after + 1;
    if (b[after] === LP) {
      // its parameters, to the ';' outside their strings
      let k = after;
      while (k >= 0 && k < b.length && b[k] !== SEMI) k = b[k] === QUOTE ? b.indexOf(QUOTE, k + 1) + 1 || -1 : k + 1;
      if (k >= 0 && k < b.length) return k + 1;
    }
  }
  return -1;
}

/** the offset of the next `c` from `from`, or Infinity */
function after(b: Uint8Array, c: number, from: number): number {
  const i = b.indexOf(c, from);
  return i < 0 ? Infinity : i;
}
function findAscii(b: Uint8Array, text: string, from: number): number {
  const first = text.charCodeAt(0);
  for (let i = b.indexOf(first, from); i >= 0; i = b.indexOf(first, i + 1)) if (startsWithAscii(b, i, text)) return i;
  return -1;
}
function startsWithAscii(b: Uint8Array, at: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (b[at + k] !== text.charCodeAt(k)) return false;
  return true;
}
/** the bytes name the type (upper case; the file may write it in lower case) */
function sameName(b: Uint8Array, from: number, to: number, name: string): boolean {
  if (to - from !== name.length) return false;
  for (let k = 0; k < name.length; k++) {
    const c = b[from + k];
    if ((c >= 97 && c <= 122 ? c - 32 : c) !== name.charCodeAt(k)) return false;
  }
  return true;
}
function skipComment(b: Uint8Array, pos: number): number {
  const end = findAscii(b, '*/', pos + 2);
  if (end < 0) throw new StepSyntaxError('a comment is not closed', pos);
  return end + 2;
}
function skipSpaceAndComments(b: Uint8Array, pos: number): number {
  for (;;) {
    while (pos < b.length && isSpace(b[pos])) pos++;
    if (b[pos] === SLASH && b[pos + 1] === STAR) pos = skipComment(b, pos);
    else return pos;
  }
}

/** one instance line's attributes, decoded from the offset of its type name */
class LineParser {
  constructor(private readonly b: Uint8Array, private pos: number, private readonly id: number) {}

  private fail(message: string): never {
    throw new StepSyntaxError(message, this.pos, this.id);
  }
  private space() {
    this.pos = skipSpaceAndComments(this.b, this.pos);
  }
  private expect(c: number) {
    this.space();
    if (this.b[this.pos] !== c) this.fail(`expected '${String.fromCharCode(c)}', found ${this.pos < this.b.length ? `'${String.fromCharCode(this.b[this.pos])}'` : 'the end'}`);
    this.pos++;
  }

  entity(): StepValue[] {
    this.name();
    const attrs = this.list();
    this.expect(SEMI);
    return attrs;
  }

  private name(): string {
    const from = this.pos;
    while (this.pos < this.b.length && isNameChar(this.b[this.pos])) this.pos++;
    return latin1(this.b, from, this.pos).toUpperCase();
  }

  /** `( value, value … )` */
  private list(): StepValue[] {
    this.expect(LP);
    const out: StepValue[] = [];
    this.space();
    if (this.b[this.pos] === RP) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.b[this.pos++];
      if (c === RP) return out;
      if (c !== COMMA) {
        this.pos--;
        this.fail(`expected ',' or ')' in a list, found ${c === undefined ? 'the end' : `'${String.fromCharCode(c)}'`}`);
      }
    }
  }

  private value(): StepValue {
    this.space();
    const b = this.b;
    const c = b[this.pos];
    if (c === DOLLAR || c === STAR) {
      this.pos++;
      return null;
    }
    if (c === HASH) {
      this.pos++;
      const from = this.pos;
      let id = 0;
      while (isDigit(b[this.pos])) id = id * 10 + (b[this.pos++] - 48);
      if (this.pos === from) this.fail("a '#' without an id");
      return { ref: id };
    }
    if (c === QUOTE) return this.string();
    if (c === DQUOTE) {
      // binary: hex digits, kept as written
      const end = b.indexOf(DQUOTE, this.pos + 1);
      if (end < 0) this.fail('a binary value is not closed');
      const s = latin1(b, this.pos + 1, end);
      this.pos = end + 1;
      return s;
    }
    if (c === DOT) {
      const end = b.indexOf(DOT, this.pos + 1);
      if (end < 0 || end - this.pos > 256) this.fail('an enumeration is not closed');
      const s = latin1(b, this.pos + 1, end);
      if (!/^[A-Za-z0-9_]+$/.test(s)) this.fail(`not an enumeration: .${s}.`);
      this.pos = end + 1;
      return { enum: s.toUpperCase() };
    }
    if (c === LP) return this.list();
    if (isDigit(c) || c === MINUS || c === PLUS) {
      const from = this.pos;
      this.pos++;
      while (this.pos < b.length && (isDigit(b[this.pos]) || b[this.pos] === DOT || b[this.pos] === 69 || b[this.pos] === 101 || b[this.pos] === MINUS || b[this.pos] === PLUS)) this.pos++;
      const text = latin1(b, from, this.pos);
      const x = Number(text); // '5.' and '1.E-05' are JavaScript numbers too
      if (!Number.isFinite(x)) this.fail(`not a number: ${text}`);
      return x;
    }
    if (c !== undefined && isNameChar(c)) {
      const type = this.name();
      const inner = this.list();
      if (inner.length !== 1) this.fail(`${type}(…) holds ${inner.length} values, not one`);
      return { type, value: inner[0] };
    }
    return this.fail(c === undefined ? 'the line ends inside a value' : `unexpected '${String.fromCharCode(c)}'`);
  }

  /** a string: '' is a quote; \\ a backslash; \S\c, \X\hh, \X2\…\X0\, \X4\…\X0\ escapes; \P…\ code pages skipped */
  private string(): string {
    const b = this.b;
    const from = ++this.pos;
    let plain = true;
    let end = from;
    for (;;) {
      if (end >= b.length) this.fail('a string is not closed');
      const c = b[end];
      if (c === QUOTE) {
        if (b[end + 1] !== QUOTE) break;
        plain = false;
        end += 2;
        continue;
      }
      if (c === BACKSLASH || c > 127) plain = false;
      end++;
    }
    this.pos = end + 1;
    if (plain) return latin1(b, from, end);
    let out = '';
    let i = from;
    // bytes above 127 written raw (not ISO 10303-21, but common): read as UTF-8, as web-ifc does
    const raw = (to: number) => {
      if (to <= i) return;
      let high = false;
      for (let k = i; k < to; k++) if (b[k] > 127) high = true;
      out += high ? utf8.decode(b.subarray(i, to)) : latin1(b, i, to);
      i = to;
    };
    const hex = (at: number, digits: number): number => {
      let v = 0;
      for (let k = 0; k < digits; k++) {
        const h = hexValue(b[at + k]);
        if (h < 0) this.fail(`a bad hex digit in a string escape at byte ${at + k}`);
        v = v * 16 + h;
      }
      return v;
    };
    let k = from;
    while (k < end) {
      const c = b[k];
      if (c === QUOTE) {
        raw(k + 1); // the first of two quotes
        k += 2;
        i = k;
        continue;
      }
      if (c !== BACKSLASH) {
        k++;
        continue;
      }
      raw(k);
      const d = b[k + 1];
      if (d === BACKSLASH) {
        out += '\\';
        k += 2;
      } else if (d === 83 && b[k + 2] === BACKSLASH) {
        // \S\c: c + 128
        out += String.fromCharCode(b[k + 3] + 128);
        k += 4;
      } else if (d === 80 && b[k + 3] === BACKSLASH) {
        k += 4; // \PA\: an ISO 8859 part; \S\ reads as part 1 (Latin-1)
      } else if (d === 88 && b[k + 2] === BACKSLASH) {
        // \X\hh: one Latin-1 character
        out += String.fromCharCode(hex(k + 3, 2));
        k += 5;
      } else if (d === 88 && (b[k + 2] === 50 || b[k + 2] === 52) && b[k + 3] === BACKSLASH) {
        // \X2\ UTF-16 code units (4 hex digits each) or \X4\ code points (8 each), up to \X0\
        const width = b[k + 2] === 50 ? 4 : 8;
        const close = findAscii(b, '\\X0\\', k + 4);
        if (close < 0 || close > end) this.fail(`\\X${b[k + 2] - 48}\\ without \\X0\\ in a string`);
        if ((close - k - 4) % width) this.fail(`\\X${b[k + 2] - 48}\\ holds a partial character`);
        const units: number[] = [];
        for (let h = k + 4; h < close; h += width) units.push(hex(h, width));
        if (width === 4) out += String.fromCharCode(...units);
        else for (const u of units) out += String.fromCodePoint(u);
        k = close + 4;
      } else this.fail(`an unknown escape \\${d === undefined ? '' : String.fromCharCode(d)} in a string`);
      i = k;
    }
    raw(end);
    return out;
  }
}
