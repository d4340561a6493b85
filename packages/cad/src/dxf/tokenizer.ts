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
  code: number;
  value: string | number;
  setDecoder(d: TextDecoder): void;
  readonly offset: number;
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

export function createAsciiReader(bytes: Uint8Array, decoder: TextDecoder): PairReader {
  let pos = 0;
  // skip a UTF-8 byte order mark
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) pos = 3;
  const n = bytes.length;
  let dec = decoder;

  /** [start, end) of the next line without its line break */
  function line(): [number, number] | null {
    if (pos >= n) return null;
    const start = pos;
    let i = bytes.indexOf(10, pos);
    if (i < 0) i = n;
    pos = i + 1;
    let end = i;
    if (end > start && bytes[end - 1] === 13) end--;
    return [start, end];
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

  function parseNumber(s: number, e: number): number {
    const iv = parseIntRange(s, e);
    if (!Number.isNaN(iv)) return iv;
    // rare path: decimals and exponents
    let str = '';
    for (let i = s; i < e; i++) str += String.fromCharCode(bytes[i]);
    const v = Number(str.trim());
    return Number.isNaN(v) ? 0 : v;
  }

  const reader: PairReader = {
    code: 0,
    value: '',
    get offset() {
      return pos;
    },
    setDecoder(d) {
      dec = d;
    },
    next() {
      const cl = line();
      if (!cl) return false;
      const code = parseIntRange(cl[0], cl[1]);
      if (Number.isNaN(code)) {
        // a blank trailing line after EOF is fine; anything else is corruption
        if (cl[1] === cl[0] && pos >= n) return false;
        throw new CadError('cad.parseFailed', undefined, `bad group code at byte ${cl[0]}`);
      }
      const vl = line();
      if (!vl) throw new CadError('cad.parseFailed', undefined, `file ends after group code ${code}`);
      const kind = valueKind(code);
      reader.code = code;
      reader.value = kind === 'string' || kind === 'binary' ? dec.decode(bytes.subarray(vl[0], vl[1])) : parseNumber(vl[0], vl[1]);
      return true;
    },
  };
  return reader;
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
    value: '',
    get offset() {
      return pos;
    },
    setDecoder(d) {
      dec = d;
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
      reader.value = value;
      return true;
    },
  };
  return reader;
}
