import { valueKind } from '../tokenizer.ts';
import type { Pair } from '../../model/drawing.ts';

/**
 * The lines of an ASCII DXF, collected as strings and encoded once at the end: UTF-8 for 2007 on, else the
 * drawing's code page with every character it lacks written as \U+XXXX (the escape AutoCAD reads back).
 */
export class TagWriter {
  readonly lines: string[] = [];

  put(code: number, value: string | number): void {
    this.lines.push(code < 10 ? `  ${code}` : code < 100 ? ` ${code}` : String(code), formatValue(code, value));
  }

  pairs(pairs: Iterable<Pair>): void {
    for (const [c, v] of pairs) this.put(c, v);
  }

  bytes(encode: (s: string) => Buffer): Buffer {
    this.lines.push('');
    return encode(this.lines.join('\r\n'));
  }
}

/** A value as its group code's type wants it: integers whole, doubles with a point, strings on one line. */
export function formatValue(code: number, value: string | number): string {
  const kind = valueKind(code);
  if (kind === 'double') {
    const n = Number(value);
    if (!Number.isFinite(n)) return '0.0';
    const s = String(n);
    return /[.eE]/.test(s) ? s : `${s}.0`;
  }
  if (kind === 'int16' || kind === 'int32' || kind === 'int64' || kind === 'bool') {
    const n = Math.trunc(Number(value));
    return Number.isFinite(n) ? String(n) : '0';
  }
  // a line break inside a value would end the pair early: written as the caret codes AutoCAD uses
  const s = String(value);
  return /[\r\n]/.test(s) ? s.replace(/\r\n|\r|\n/g, '^J') : s;
}

/** $DWGCODEPAGE → WHATWG label (the same table the reader decodes with) */
const LABELS: Record<string, string> = {
  ANSI_936: 'gbk', ANSI_950: 'big5', ANSI_932: 'shift_jis', ANSI_949: 'euc-kr', ANSI_1361: 'euc-kr', ANSI_874: 'windows-874',
  ANSI_1250: 'windows-1250', ANSI_1251: 'windows-1251', ANSI_1252: 'windows-1252', ANSI_1253: 'windows-1253', ANSI_1254: 'windows-1254',
  ANSI_1255: 'windows-1255', ANSI_1256: 'windows-1256', ANSI_1257: 'windows-1257', ANSI_1258: 'windows-1258',
};

/** code pages we can write: the reader's table less DOS437 (no WHATWG decoder matches it) */
export function writableCodePage(codePage: string): string {
  const up = codePage.toUpperCase();
  return LABELS[up] ? up : 'ANSI_1252';
}

const encoders = new Map<string, Map<number, number[]>>();

/**
 * Character → bytes of a code page, built once by decoding every byte and byte pair (Node has decoders for
 * all of them but no encoders). Double-byte pages take ~65k decodes, a few ms, once per process.
 */
function reverseTable(label: string): Map<number, number[]> {
  let table = encoders.get(label);
  if (table) return table;
  table = new Map();
  const d = new TextDecoder(label, { fatal: true });
  const single = (b: number) => {
    try {
      const s = d.decode(new Uint8Array([b]));
      if (s.length === 1 && !table!.has(s.charCodeAt(0))) table!.set(s.charCodeAt(0), [b]);
    } catch { /* a lead byte or an unmapped one */ }
  };
  for (let b = 0; b < 256; b++) single(b);
  if (['gbk', 'big5', 'shift_jis', 'euc-kr'].includes(label)) {
    for (let a = 0x81; a < 0xff; a++) {
      for (let b = 0x40; b < 0xff; b++) {
        try {
          const s = d.decode(new Uint8Array([a, b]));
          if (s.length === 1 && !table.has(s.charCodeAt(0))) table.set(s.charCodeAt(0), [a, b]);
        } catch { /* not a pair of this page */ }
      }
    }
  }
  encoders.set(label, table);
  return table;
}

/** An encoder for the file's text: UTF-8, or the code page with \U+ escapes for characters it lacks. */
export function textEncoder(utf8: boolean, codePage: string): (s: string) => Buffer {
  if (utf8) return (s) => Buffer.from(s, 'utf8');
  const table = reverseTable(LABELS[writableCodePage(codePage)]);
  return (s) => {
    const out: number[] = [];
    for (const ch of s) {
      const c = ch.codePointAt(0)!;
      if (c < 0x80) out.push(c);
      else {
        const bytes = c <= 0xffff ? table.get(c) : undefined;
        if (bytes) out.push(...bytes);
        else for (const unit of c <= 0xffff ? [c] : [ch.charCodeAt(0), ch.charCodeAt(1)]) for (const b of `\\U+${unit.toString(16).toUpperCase().padStart(4, '0')}`) out.push(b.charCodeAt(0));
      }
    }
    return Buffer.from(out);
  };
}

/**
 * A string the reader decoded as windows-1252 (the header, read before $DWGCODEPAGE is known) decoded again with
 * the file's real encoding: UTF-8 from 2007 on, else its code page.
 */
export function redecodeHeaderString(s: string, version: string, codePage: string): string {
  if (!/[^\x00-\x7f]/.test(s)) return s;
  const latin = reverseTable('windows-1252');
  const bytes: number[] = [];
  for (const ch of s) {
    const b = latin.get(ch.charCodeAt(0));
    if (!b) return s;
    bytes.push(...b);
  }
  const label = version >= 'AC1021' ? 'utf-8' : LABELS[writableCodePage(codePage)];
  return new TextDecoder(label).decode(new Uint8Array(bytes));
}
