import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../fidelity/samples.ts';
import { parseSab } from '../../acis/sab.ts';
import { ACDS_SECTION, parseAcds, readAcisStorage } from './acds.ts';
import { decompressR2004 } from './lz77.ts';
import { readR2004Section } from './sections.ts';

/** little-endian writer for the fixtures */
class Bytes {
  b: number[] = [];
  u8(...v: number[]) {
    this.b.push(...v);
    return this;
  }
  u32(v: number) {
    return this.u8(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
  }
  u64(v: number) {
    return this.u32(v % 2 ** 32).u32(Math.floor(v / 2 ** 32));
  }
  text(s: string, size = s.length) {
    for (let i = 0; i < size; i++) this.b.push(i < s.length ? s.charCodeAt(i) : 0);
    return this;
  }
  bytes(a: Uint8Array | number[]) {
    for (const x of a) this.b.push(x);
    return this;
  }
  pad(to: number, fill = 0) {
    while (this.b.length < to) this.b.push(fill);
    return this;
  }
  get length() {
    return this.b.length;
  }
  done() {
    return new Uint8Array(this.b);
  }
}

/** stand-in SAB values: the signature the storage reader keeps, a body, and the end marker */
const sab = (body: string, sig = 'ACIS BinaryFile') => new TextEncoder().encode(`${sig}${body}\x0e\x03End\x0e\x02of\x0e\x03ASM\r\x04data`);

/** a 48-byte AcDs segment header: signature 0xD5AC, name, index, blob flag, size, …, object data alignment (in 16 bytes) */
function segmentHeader(w: Bytes, name: string, index: number, size: number, dataAlign = 0, blob = 0) {
  w.u8(0xac, 0xd5).text(name, 6).u32(index).u32(blob).u32(size).u32(0).u32(2).u32(0).u32(0).u32(dataAlign).u8(...Array(8).fill(0x55));
}

/**
 * An AcDs data storage as AutoCAD lays it out: file header, segment index, data index, one "_data_" segment whose
 * values lie in another order than their record headers (as in example_2013.dwg), and one value split over two
 * "blob01" pages. Segments: 1 segidx, 2 datidx, 3 _data_, 4 and 5 blob01.
 */
function acdsFixture(values: { handle: number; value: Uint8Array | 'blob' }[], blob: Uint8Array): Uint8Array {
  const w = new Bytes();
  const at: number[] = [];
  w.text('jard').u32(0x80).u32(8).u32(2).u32(0).u32(2).u32(0x80).u32(0).u32(6).u32(0).u32(2).u32(0).u32(0).pad(0x80);
  // segment index (offsets filled in at the end)
  at[1] = w.length;
  segmentHeader(w, 'segidx', 1, 48 + 6 * 12);
  const segidxTable = w.length;
  w.pad(segidxTable + 6 * 12).pad(Math.ceil(w.length / 16) * 16);
  // data index: one entry per value, pointing into segment 3 at its record header, plus an unused entry
  at[2] = w.length;
  segmentHeader(w, 'datidx', 2, 0);
  w.u32(values.length + 1).u32(0);
  w.u32(0).u32(0).u32(0);
  values.forEach((_, i) => w.u32(3).u32(i * 20).u32(0));
  w.pad(Math.ceil(w.length / 16) * 16);
  // the _data_ segment: record headers (size, unknown, handle, value offset), then the values, last one first
  at[3] = w.length;
  const headersAt = at[3] + 48;
  const dataAlign = Math.ceil((48 + values.length * 20) / 16);
  segmentHeader(w, '_data_', 3, 0, dataAlign);
  const bodies = values.map((v) => {
    const b = new Bytes();
    if (v.value === 'blob') {
      const half = Math.ceil(blob.length / 2);
      b.u32(0xbb106bb1).u64(blob.length).u32(2).u32(blob.length).u32(half).u32(blob.length - half).u32(0).u32(0).u32(4).u32(half).u32(5).u32(blob.length - half);
    } else b.u32(v.value.length).bytes(v.value);
    return b.done();
  });
  const offsets: number[] = [];
  let o = 0;
  for (let i = bodies.length - 1; i >= 0; i--) {
    offsets[i] = o;
    o += bodies[i].length;
  }
  values.forEach((v, i) => w.u32(20).u32(0).u64(v.handle).u32(offsets[i]));
  w.pad(at[3] + dataAlign * 16);
  for (let i = bodies.length - 1; i >= 0; i--) w.bytes(bodies[i]);
  w.pad(Math.ceil(w.length / 16) * 16);
  // two blob01 pages: total size, start offset, page index, page count, page size, bytes
  const half = Math.ceil(blob.length / 2);
  for (const [k, part, start] of [[4, blob.subarray(0, half), 0], [5, blob.subarray(half), half]] as const) {
    at[k] = w.length;
    segmentHeader(w, 'blob01', k, 0, 0, 1);
    w.u64(blob.length).u64(start).u32(k - 4).u32(2).u64(part.length).bytes(part);
    w.pad(Math.ceil(w.length / 128) * 128);
  }
  const out = w.done();
  const v = new DataView(out.buffer);
  for (let k = 1; k <= 5; k++) v.setBigUint64(segidxTable + k * 12, BigInt(at[k]), true);
  return out;
}

/**
 * An R2004-format DWG holding one section (uncompressed pages: the container is what is tested here): the encrypted
 * file header, the section's data page (header masked by its address), the section map and the page map.
 */
function r2004Fixture(name: string, section: Uint8Array, version = 'AC1027', declaredSize = section.length): Uint8Array {
  const w = new Bytes().text(version).pad(0x100);
  const pages: [number, number][] = [];
  // page 1: the section's data, behind its masked 32-byte header
  const dataAt = w.length;
  const mask = (0x4164536b ^ dataAt) >>> 0;
  for (const word of [0x4163043b, 1, section.length, section.length, 0, 0, 0, 0]) w.u32((word ^ mask) >>> 0);
  w.bytes(section).pad(Math.ceil(w.length / 32) * 32);
  pages.push([1, w.length - dataAt]);
  // page 2: the section map (one description, one page), stored without compression
  const map = new Bytes().u32(1).u32(2).u32(0x7400).u32(0).u32(1);
  map.u64(declaredSize).u32(1).u32(0x7400).u32(1).u32(1).u32(1).u32(0).text(name, 64).u32(1).u32(section.length).u64(0);
  const mapAt = w.length;
  w.u32(0x4163003b).u32(map.length).u32(map.length).u32(1).u32(0).bytes(map.b).pad(Math.ceil(w.length / 32) * 32);
  pages.push([2, w.length - mapAt]);
  // page 3: the page map itself
  const pageMapAt = w.length;
  const pm = new Bytes();
  for (const [n, size] of [...pages, [3, 64] as [number, number]]) pm.u32(n).u32(size);
  w.u32(0x41630e3b).u32(pm.length).u32(pm.length).u32(1).u32(0).bytes(pm.b);
  const out = new Uint8Array(Math.max(w.length, pageMapAt + 64));
  out.set(w.done());
  // the file header at 0x80, xor-ed with the sequence of rand() seeded with 1
  const plain = new Bytes().text('AcFssFcAJMB', 12).pad(0x54).u64(pageMapAt - 0x100).u32(2).pad(0x6c).done();
  let seed = 1;
  for (let i = 0; i < 0x6c; i++) {
    seed = (Math.imul(seed, 0x343fd) + 0x269ec3) >>> 0;
    out[0x80 + i] = plain[i] ^ ((seed >>> 16) & 0xff);
  }
  return out;
}

const corpus = (name: string) => path.resolve(repoRoot, process.env.CORPUS_DIR ?? '../shared/corpus', name);

describe('R2004-format DWG sections and the AcDs data storage (ACIS data of 2013+ solids)', () => {
  it('decompresses the R2004 LZ77 variant: literal runs, overlapping back-references, the 0x11 end', () => {
    // 4 literals (opcode 17 + 4), then 8 bytes from 4 back (0x9C: count (9 − 1), offset bits 3 → 4), then the end
    const stream = new Uint8Array([0x15, ...new TextEncoder().encode('abcd'), 0x9c, 0x00, 0x11]);
    expect(new TextDecoder().decode(decompressR2004(stream, 0, stream.length, 12))).toBe('abcdabcdabcd');
    // a back-reference before the start, a run past the page, a stream cut short: damaged, never a wrong page
    expect(() => decompressR2004(new Uint8Array([0x15, 97, 98, 99, 100, 0x9c, 0x40, 0x11]), 0, 8, 12)).toThrow(RangeError);
    expect(() => decompressR2004(stream, 0, stream.length, 8)).toThrow(RangeError);
    expect(() => decompressR2004(stream, 0, 6, 12)).toThrow(RangeError);
  });

  it('gives each SAB value to the handle its record names, whatever the order of the values, blobs included', () => {
    const solid = sab('solid'.repeat(40)), region = sab('region'), big = sab('blob'.repeat(300), 'ASM BinaryFile4');
    const storage = acdsFixture([{ handle: 0x2e1, value: solid }, { handle: 0x37d, value: region }, { handle: 0x9a, value: new TextEncoder().encode('not ACIS') }, { handle: 0xd65, value: 'blob' }], big);
    const m = parseAcds(storage);
    expect([...m.keys()].sort()).toEqual(['2E1', '37D', 'D65']);
    expect(m.get('2E1')).toEqual(solid);
    expect(m.get('37D')).toEqual(region);
    expect(m.get('D65')).toEqual(big);
    // through the file container: the same from a DWG holding the storage as its AcDsPrototype_1b section
    const dwg = r2004Fixture(ACDS_SECTION, storage);
    expect(readR2004Section(dwg, ACDS_SECTION)).toEqual(storage);
    expect(readR2004Section(dwg, 'AcDb:Other')).toBeNull();
    expect(readAcisStorage(dwg).get('2E1')).toEqual(solid);
  });

  it('refuses damaged storage and containers with a RangeError (the caller then draws nothing from them), never loops or over-allocates', () => {
    const storage = acdsFixture([{ handle: 0x2e1, value: sab('x') }], sab('y'));
    for (let n = 0; n < storage.length; n += 37) {
      try {
        parseAcds(storage.subarray(0, n));
      } catch (e) {
        expect(e).toBeInstanceOf(RangeError);
      }
    }
    const dwg = r2004Fixture(ACDS_SECTION, storage);
    // cut short; a section size larger than its pages can hold
    expect(() => readAcisStorage(dwg.subarray(0, dwg.length - 70))).toThrow(RangeError);
    expect(() => readAcisStorage(r2004Fixture(ACDS_SECTION, storage, 'AC1027', 2 ** 31))).toThrow(RangeError);
    // a pre-2004 or 2007 container is not this format: no section, no error
    expect(readR2004Section(r2004Fixture(ACDS_SECTION, storage, 'AC1021'), ACDS_SECTION)).toBeNull();
  });

  // the corpus's example drawing as 2013 and 2018 saved it: its 3DSOLID 2E1 and REGIONs 176 and 37D, sizes as in the DXF twins
  for (const v of ['2013', '2018']) {
    const file = corpus(`libredwg/example_${v}.dwg`);
    it.runIf(existsSync(file))(`reads the ACIS data of example_${v}.dwg by handle`, () => {
      const m = readAcisStorage(readFileSync(file));
      expect(Object.fromEntries([...m].map(([h, b]) => [h, b.length]))).toEqual({ '176': 1709, '2E1': 8798, '37D': 2196 });
      expect(parseSab(m.get('2E1')!)?.records.length).toBe(134);
    });
    if (!existsSync(file)) console.warn(`corpus file example_${v}.dwg absent: its check is skipped`);
  }
});
