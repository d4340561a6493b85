import { describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAsciiReader, type ByteSource, type PairReader } from './tokenizer.ts';
import { parseDxf, pairValue } from './reader.ts';
import { parseDxfFile } from './file.ts';
import { writeAsciiDxf, type FixtureEntity } from '../testing/dxf-writer.ts';

const enc = new TextEncoder();
const latin = () => new TextDecoder('windows-1252');
let seed = 11;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

function pairsOf(r: PairReader): [number, string | number][] {
  const out: [number, string | number][] = [];
  while (r.next()) out.push([r.code, r.value]);
  return out;
}

/** bytes handed out a few at a time, as a slow file or socket would */
function trickle(bytes: Uint8Array): ByteSource {
  let at = 0;
  return {
    fill(into, to) {
      const k = Math.min(1 + Math.floor(rand() * 7), into.length - to, bytes.length - at);
      into.set(bytes.subarray(at, at + k), to);
      at += k;
      return k;
    },
  };
}

/** a drawing with long and short lines, CRLF, numbers of every shape the fast path takes or leaves */
function mixedDxf(): Uint8Array {
  const entities: FixtureEntity[] = [];
  for (let i = 0; i < 400; i++) {
    const pts: [number, number][] = [];
    for (let k = 0; k < 1 + (i % 9); k++) pts.push([10, (rand() - 0.5) * 10 ** Math.floor(rand() * 9)], [20, Number((rand() * 1e6).toPrecision(1 + Math.floor(rand() * 17)))]);
    entities.push({ type: 'LWPOLYLINE', pairs: [[5, (0x100 + i).toString(16)], [8, `L${i % 7}`], [90, pts.length / 2], [70, i % 2], ...pts, [42, -0.5]] });
    entities.push({ type: 'MTEXT', pairs: [[8, '0'], [10, 1e-7 * i], [20, -0], [40, 2.5], [1, 'x'.repeat(i * 3) + '\\U+4E2D'], [3, 'long '.repeat(60)]] });
  }
  return writeAsciiDxf({ layers: ['0', 'L0', 'L1'], entities });
}

describe('ASCII tokenizer', () => {
  it('parses every number exactly as Number() does, through the fast path and around it', () => {
    const texts: string[] = ['0', '-0', '0.0', '-0.0', '1.', '.5', '-.5', '+7', '007', '1e3', '-2.5E-3', ' 12.5 ', '\t3', '12345678901234567', '9007199254740993', '0.1234567890123456789012345', '1.7976931348623157e308', '123456789012.3456'];
    for (let i = 0; i < 3000; i++) {
      const digits = 1 + Math.floor(rand() * 17);
      let s = '';
      for (let k = 0; k < digits; k++) s += Math.floor(rand() * 10);
      const point = Math.floor(rand() * (digits + 1));
      texts.push((rand() < 0.3 ? '-' : '') + s.slice(0, point) + (point < digits ? '.' + s.slice(point) : ''));
    }
    const bytes = enc.encode(texts.map((t, i) => ` 10\r\n${t}\r\n${i % 2 ? '40' : '70'}\n${t}\n`).join(''));
    const got = pairsOf(createAsciiReader(bytes, latin()));
    expect(got.length).toBe(texts.length * 2);
    // integers are summed digit by digit, as this reader always did (only differs from Number beyond 2^53)
    const intText = (t: string) => {
      const m = /^[ \t]*([+-]?)(\d+)[ \t]*$/.exec(t);
      if (!m) return null;
      let v = 0;
      for (const ch of m[2]) v = v * 10 + Number(ch);
      return m[1] === '-' ? -v : v;
    };
    texts.forEach((t, i) => {
      const want = intText(t) ?? Number(t.trim());
      expect(Object.is(got[2 * i][1], Number.isNaN(want) ? 0 : want), `${t} → ${got[2 * i][1]}`).toBe(true);
      expect(Object.is(got[2 * i + 1][1], got[2 * i][1])).toBe(true);
    });
  });

  it('parses 17-digit decimals (shortest round trip, as Python writes them) to the same double as Number()', () => {
    const texts = ['4503599627370496.5', '4503599627370497.5', '9007199254740993.0', '0.30000000000000004', '1.0000000000000002', '0.99999999999999989', '2.2250738585072014', '123456789.123456789012'];
    for (let i = 0; i < 60000; i++) {
      const v = (rand() - 0.5) * 10 ** Math.floor(rand() * 12 - 3);
      texts.push(String(v).includes('e') ? v.toFixed(17) : String(v));
      // and digit strings of 16–23 digits
      const nd = 16 + Math.floor(rand() * 8);
      let d = String(1 + Math.floor(rand() * 9));
      while (d.length < nd) d += Math.floor(rand() * 10);
      const point = 1 + Math.floor(rand() * (nd - 1));
      texts.push(d.slice(0, point) + '.' + d.slice(point));
    }
    const bytes = enc.encode(texts.map((t) => ` 10\n${t}\n`).join(''));
    const got = pairsOf(createAsciiReader(bytes, latin()));
    texts.forEach((t, i) => expect(Object.is(got[i][1], Number(t)), `${t} → ${got[i][1]}`).toBe(true));
  });

  it('reads the same pairs from a stream in small windows as from the whole file', () => {
    const bytes = mixedDxf();
    const whole = pairsOf(createAsciiReader(bytes, latin()));
    for (const windowBytes of [64, 1000, 1 << 16]) {
      const streamed = pairsOf(createAsciiReader(new Uint8Array(0), latin(), trickle(bytes), windowBytes));
      expect(streamed).toEqual(whole);
    }
    // a file without a final line break, and a lone CR inside a value
    const odd = enc.encode('0\nSECTION\n1\na\rb\n 10\n-1.5');
    expect(pairsOf(createAsciiReader(odd, latin()))).toEqual([[0, 'SECTION'], [1, 'a\rb'], [10, -1.5]]);
    expect(pairsOf(createAsciiReader(new Uint8Array(0), latin(), trickle(odd), 8))).toEqual([[0, 'SECTION'], [1, 'a\rb'], [10, -1.5]]);
  });

  it('decodes long and short values with the file\'s code page, with and without Node\'s Buffer', async () => {
    // values past the hashed prefix with bytes above ASCII (windows-1252 0x80 is €, latin1 would say U+0080),
    // ASCII values of every length, and UTF-8 text
    const ascii = Array.from({ length: 120 }, (_, i) => 'abcdefghij'.repeat(30).slice(0, i + 1));
    const lines: number[] = [];
    const push = (code: number, value: number[]) => lines.push(...enc.encode(`${code}\r\n`), ...value, 13, 10);
    for (const a of ascii) push(1, [...enc.encode(a)]);
    for (const at of [0, 5, 40, 41, 60, 200]) push(3, [...enc.encode('x'.repeat(at)), 0x80, 0xe9, ...enc.encode('y'.repeat(50))]);
    push(1, [...enc.encode('€ and ✓ in UTF-8, '.repeat(5))]);
    const bytes = new Uint8Array(lines);
    const utf8 = () => new TextDecoder('utf-8');
    const expected = (d: TextDecoder) => {
      const out: [number, string][] = [];
      let p = 0;
      while (p < bytes.length) {
        const ce = bytes.indexOf(10, p);
        const ve = bytes.indexOf(10, ce + 1);
        out.push([Number(new TextDecoder().decode(bytes.subarray(p, ce - 1))), d.decode(bytes.subarray(ce + 1, ve - 1))]);
        p = ve + 1;
      }
      return out;
    };
    expect(pairsOf(createAsciiReader(bytes, latin()))).toEqual(expected(latin()));
    expect(pairsOf(createAsciiReader(bytes, utf8()))).toEqual(expected(utf8()));
    expect(pairsOf(createAsciiReader(new Uint8Array(0), latin(), trickle(bytes), 128))).toEqual(expected(latin()));
    // the same tokenizer where there is no Buffer (the reader's generic paths)
    vi.stubGlobal('Buffer', undefined);
    vi.resetModules();
    try {
      const plain = await import('./tokenizer.ts');
      expect(pairsOf(plain.createAsciiReader(bytes, latin()))).toEqual(expected(latin()));
      expect(pairsOf(plain.createAsciiReader(bytes, utf8()))).toEqual(expected(utf8()));
      const mixed = mixedDxf();
      expect(pairsOf(plain.createAsciiReader(mixed, latin()))).toEqual(pairsOf(createAsciiReader(mixed, latin())));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('skips records to the same 0 pairs, offsets and errors as reading every pair, and reads them into a sink as next() does', () => {
    // the 0 pairs (with where the reader stands after each) when every pair is read, and when records are skipped
    const zeros = (r: PairReader, skip: boolean) => {
      const out: [number, string | number, number][] = [];
      try {
        for (;;) {
          if (!(skip ? r.skipRecord() : r.next())) break;
          if (r.code === 0) out.push([r.code, r.value, r.offset]);
        }
      } catch (e) {
        out.push([-1, String(e), r.offset]);
      }
      return out;
    };
    const inputs = [
      mixedDxf(),
      // long lines, a lone CR, spaces and a + before codes, a comment, CRLF and LF mixed, no final line break
      enc.encode(`0\nSECTION\n2\nOBJECTS\n0\nX\n310\n${'AB'.repeat(200)}\r\n1\na\rb\n  330\n1F\n+5\nzz\n999\nnote\n0\nY\n 40\n1e3\n0\nENDSEC\n0\nEOF`),
      // a bad code line, and a file that ends after a code
      enc.encode('0\nA\n8\nL\nx1\nv\n0\nB\n'),
      enc.encode('0\nA\n8\nL\n10\n'),
    ];
    const samplesDir = path.resolve(import.meta.dirname, '../../../..', process.env.SAMPLES_DIR ?? '../shared/samples');
    if (existsSync(samplesDir)) for (const f of readdirSync(samplesDir).filter((f) => f.endsWith('.dxf') && !f.includes('binary'))) inputs.push(readFileSync(path.join(samplesDir, f)));
    for (const bytes of inputs) {
      const want = zeros(createAsciiReader(bytes, latin()), false);
      expect(want.length).toBeGreaterThan(0);
      expect(zeros(createAsciiReader(bytes, latin()), true)).toEqual(want);
      if (bytes.length < 300_000) expect(zeros(createAsciiReader(new Uint8Array(0), latin(), trickle(bytes), 256), true)).toEqual(want);
    }

    // readPairs: a record's pairs through a sink are the pairs next() gives, 999 comments left out, then the 0 pair
    type Got = [number, string | number][];
    const every = (r: PairReader) => {
      const out: Got = [];
      try {
        while (r.next()) if (r.code !== 999) out.push([r.code, r.value]);
      } catch (e) {
        out.push([-1, String(e)]);
      }
      return out;
    };
    const viaSink = (r: PairReader) => {
      const out: Got = [];
      const sink = { pushNum: (c: number, v: number) => out.push([c, v]), pushStr: (c: number, v: string) => out.push([c, v]) };
      try {
        // the first pair, then each record's pairs and the 0 pair that ends it
        if (r.next())
          do if (r.code !== 999) out.push([r.code, r.value]);
          while (r.readPairs(sink));
      } catch (e) {
        out.push([-1, String(e)]);
      }
      return out;
    };
    for (const bytes of inputs) {
      const want = every(createAsciiReader(bytes, latin()));
      expect(viaSink(createAsciiReader(bytes, latin()))).toEqual(want);
      if (bytes.length < 300_000) expect(viaSink(createAsciiReader(new Uint8Array(0), latin(), trickle(bytes), 256))).toEqual(want);
    }
    expect(every(createAsciiReader(inputs[1], latin())).some(([c]) => c === 999)).toBe(false);
    expect(viaSink(createAsciiReader(inputs[1], latin()))).toContainEqual([330, '1F']);
  });
});

describe('entities with their pairs in shared columns', () => {
  it('answer pairValue, pairs, JSON and writes exactly as plain entities', () => {
    const vertices: [number, number][] = [];
    // far more pairs than a first chunk holds: the entity moves to a larger chunk whole
    for (let i = 0; i < 5000; i++) vertices.push([10, i + 0.25], [20, -i]);
    const d = parseDxf(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, 'A'], [10, 1], [11, 2]] }, { type: 'LWPOLYLINE', pairs: [[5, 'FF'], [8, 'B'], [90, 5000], ...vertices] }, { type: 'LINE', pairs: [[8, 'C'], [1999999999, 'far'], [10, 3]] }] }));
    const [a, poly, far] = d.entities;
    expect(pairValue(poly, 20)).toBe(0);
    expect(pairValue(poly, 10)).toBe(0.25);
    expect(poly.pairs.length).toBe(10003);
    expect(poly.pairs[10002]).toEqual([20, -4999]);
    expect(pairValue(far, 1999999999)).toBe('far');
    expect(far.pairs).toEqual([[8, 'C'], [1999999999, 'far'], [10, 3]]);
    expect(JSON.parse(JSON.stringify(a))).toEqual({ type: 'LINE', layer: 'A', color: 256, paperSpace: false, pairs: [[8, 'A'], [10, 1], [11, 2]] });
    expect(a).toMatchObject({ type: 'LINE', layer: 'A', pairs: [[8, 'A'], [10, 1], [11, 2]] });
    a.pairs = [[8, 'A'], [10, 5]];
    expect(pairValue(a, 10)).toBe(5);
    expect(a.pairs).toEqual([[8, 'A'], [10, 5]]);
  });
});

describe('parseDxfFile', () => {
  it('streams a file to the same drawing as parseDxf of its bytes', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dxf-file-'));
    try {
      const file = path.join(dir, 'mixed.dxf');
      const bytes = mixedDxf();
      writeFileSync(file, bytes);
      expect(JSON.stringify(parseDxfFile(file, 256))).toBe(JSON.stringify(parseDxf(bytes)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const samplesDir = path.resolve(import.meta.dirname, '../../../..', process.env.SAMPLES_DIR ?? '../shared/samples');
  const samples = existsSync(samplesDir) ? readdirSync(samplesDir).filter((f) => f.toLowerCase().endsWith('.dxf')) : [];
  it.runIf(samples.length > 0)('streams every sample DXF to the same drawing (64 KB windows)', () => {
    for (const f of samples) {
      const file = path.join(samplesDir, f);
      expect(JSON.stringify(parseDxfFile(file, 1 << 16)), f).toBe(JSON.stringify(parseDxf(readFileSync(file))));
    }
  });
});
