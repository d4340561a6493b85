/**
 * A tiny R10/R11/R12 DWG writer for tests: fixtures generated in code (every entity kind, damaged files), so
 * the R12 reader's tests need no sample for what the one sample lacks. Not a product writer: CRCs and sentinels
 * are zeros (the reader does not check them), the header variables are zeros but for the few set below.
 * It writes the layout dwg/r12 reads; the R11 sample is what ties that layout to AutoCAD's.
 */
export interface R12Record {
  /** record type number (1 LINE, 2 POINT … see r12/entities.ts); 0x80 set marks a deleted record */
  type: number;
  layer?: number;
  opts?: number;
  color?: number;
  /** linetype index (0x7ffe BYBLOCK) */
  ltype?: number;
  /** stored elevation (types other than LINE, POINT, 3DFACE); on those the flag means "2D points" */
  elevation?: number;
  /** set the "2D" elevation flag on LINE, POINT, 3DFACE */
  flat?: boolean;
  thickness?: number;
  handle?: number;
  /** in paper space (the extra byte, with a viewport index) */
  paper?: boolean;
  /** extended entity data, as stored (needs `paper`: the extra byte says it is there) */
  eed?: Uint8Array;
  /** VERTEX/ATTRIB records follow (POLYLINE, INSERT) */
  children?: boolean;
  /** the type's own fields, in order */
  body?: Uint8Array;
}

export class Bytes {
  private parts: number[] = [];
  u8(v: number) {
    this.parts.push(v & 0xff);
    return this;
  }
  u16(v: number) {
    return this.u8(v).u8(v >> 8);
  }
  u32(v: number) {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  f64(...vs: number[]) {
    for (const v of vs) {
      const b = new Uint8Array(new Float64Array([v]).buffer);
      for (const x of b) this.u8(x);
    }
    return this;
  }
  /** a counted string (16-bit length, latin-1 bytes) */
  text(s: string) {
    this.u16(s.length);
    for (let i = 0; i < s.length; i++) this.u8(s.charCodeAt(i));
    return this;
  }
  /** a fixed-size NUL-padded name */
  fixed(s: string, n: number) {
    for (let i = 0; i < n; i++) this.u8(i < s.length ? s.charCodeAt(i) : 0);
    return this;
  }
  raw(b: Uint8Array) {
    for (const x of b) this.u8(x);
    return this;
  }
  get length() {
    return this.parts.length;
  }
  bytes() {
    return Uint8Array.from(this.parts);
  }
}

export const body = () => new Bytes();

function record(r: R12Record, r11: boolean): Uint8Array {
  const noElevation = r.type === 1 || r.type === 2 || r.type === 22;
  const flag =
    (r.color !== undefined ? 1 : 0) | (r.ltype !== undefined ? 2 : 0) | ((noElevation ? r.flat : r.elevation !== undefined) ? 4 : 0) |
    (r.thickness !== undefined ? 8 : 0) | (r.handle !== undefined ? 32 : 0) | (r.paper ? 64 : 0) | (r.children ? 128 : 0);
  const b = new Bytes().u16(r.layer ?? 0).u16(r.opts ?? 0);
  if (r.paper) b.u8(r.eed ? 6 : 4);
  if (r.paper && r.eed) b.u16(r.eed.length).raw(r.eed);
  if (r.color !== undefined) b.u8(r.color);
  if (r.ltype !== undefined) (r11 ? b.u16(r.ltype) : b.u8(r.ltype));
  if (!noElevation && r.elevation !== undefined) b.f64(r.elevation);
  if (r.thickness !== undefined) b.f64(r.thickness);
  if (r.handle !== undefined) b.u8(2).u8(r.handle >> 8).u8(r.handle);
  if (r.paper) b.u16(1);
  if (r.body) b.raw(r.body);
  const size = 4 + b.length + (r11 ? 2 : 0);
  const out = new Bytes().u8(r.type).u8(flag).u16(size).raw(b.bytes());
  if (r11) out.u16(0);
  return out.bytes();
}

export interface R12Drawing {
  version?: 'AC1009' | 'AC1006';
  layers?: { name: string; color?: number; ltype?: number; flags?: number }[];
  linetypes?: { name: string; pattern: number[] }[];
  styles?: { name: string; font: string; width?: number }[];
  /** blocks in table order; each block's BLOCK record carries the name */
  blocks?: { name: string; base?: [number, number]; entities: R12Record[] }[];
  entities: R12Record[];
  /** $TILEMODE (1: model space) */
  tileMode?: number;
}

/** A complete DWG file of the given tables and records. */
export function writeDwgR12(d: R12Drawing): Uint8Array {
  const r11 = (d.version ?? 'AC1009') === 'AC1009';
  const numVars = r11 ? 205 : 158;
  // header variables: zeros at their offsets (0x5e …), up to 0x6bd for R11/R12, plus CRC and a sentinel
  const varsEnd = r11 ? 0x6bd + 2 + 16 : 0x512;
  const head = new Uint8Array(varsEnd);
  const dv = new DataView(head.buffer);
  head.set([...'AC1009'].map((c) => c.charCodeAt(0)));
  if (!r11) head.set([...'AC1006'].map((c) => c.charCodeAt(0)));
  dv.setUint8(0x0c, 1);
  dv.setUint16(0x0d, 3, true);
  dv.setUint16(0x0f, 5, true);
  dv.setUint16(0x11, numVars, true);
  dv.setFloat64(0x132, 1, true); // $LTSCALE
  dv.setUint16(0x3f9, 30, true); // code page ANSI_1252
  if (r11) dv.setUint16(0x631, d.tileMode ?? 1, true); // $TILEMODE

  const entities = new Bytes();
  for (const e of d.entities) entities.raw(record(e, r11));
  const blocks = new Bytes();
  const offsets: number[] = [];
  for (const b of d.blocks ?? []) {
    offsets.push(blocks.length);
    blocks.raw(record({ type: 12, opts: 4, body: body().f64(b.base?.[0] ?? 0, b.base?.[1] ?? 0).text(b.name).bytes() }, r11));
    for (const e of b.entities) blocks.raw(record(e, r11));
    blocks.raw(record({ type: 13 }, r11));
  }

  const gap = r11 ? 32 : 0; // sentinels between the sections
  const entitiesStart = varsEnd;
  const entitiesEnd = entitiesStart + entities.length;
  // the tables follow one another (real files put sentinels between them too: the reader goes by address)
  const at = entitiesEnd + gap;
  const tables = new Bytes();
  const table = (entryBytes: Uint8Array[], size: number) => {
    const address = at + tables.length;
    for (const e of entryBytes) {
      const padded = new Uint8Array(size);
      padded.set(e.subarray(0, size));
      tables.raw(padded);
    }
    return { size, number: entryBytes.length, address };
  };
  const entry = (flags: number, name: string) => {
    const b = new Bytes().u8(flags).fixed(name, 32);
    if (r11) b.u16(0xffff);
    return b;
  };
  const extra = r11 ? 2 + 2 : 0; // "used" and the CRC
  const ltypes = (d.linetypes ?? [{ name: 'CONTINUOUS', pattern: [] }]).map((l) => {
    const b = entry(0, l.name).fixed('', 48).u8(65).u8(l.pattern.length).f64(l.pattern.reduce((a, x) => a + Math.abs(x), 0));
    for (let i = 0; i < 12; i++) b.f64(l.pattern[i] ?? 0);
    return b.bytes();
  });
  const ltypeT = table(ltypes, 33 + extra + 48 + 2 + 8 + 96);
  const layerT = table((d.layers ?? [{ name: '0' }]).map((l) => entry(l.flags ?? 0, l.name).u16(l.color ?? 7).u16(l.ltype ?? 0).bytes()), 33 + extra + 4);
  const styleT = table((d.styles ?? [{ name: 'STANDARD', font: 'txt' }]).map((s) => entry(0, s.name).f64(0, s.width ?? 1, 0).u8(0).f64(0.2).fixed(s.font, 64).fixed('', 64).bytes()), 33 + extra + 33 + 128);
  const blockT = table((d.blocks ?? []).map((b, i) => entry(0, b.name).u32(0x40000000 | offsets[i]).u16(0).u8(0).u8(0).bytes()), 33 + extra + 8);
  const blocksStart = at + tables.length + gap;
  const file = new Bytes().raw(head).raw(entities.bytes());
  for (let i = 0; i < gap; i++) file.u8(0);
  file.raw(tables.bytes());
  for (let i = 0; i < gap; i++) file.u8(0);
  file.raw(blocks.bytes());
  for (let i = 0; i < gap + 64; i++) file.u8(0); // the closing sentinel and the R11 auxiliary header stand here
  const out = file.bytes();
  const ov = new DataView(out.buffer);
  ov.setUint32(0x14, entitiesStart, true);
  ov.setUint32(0x18, entitiesEnd, true);
  ov.setUint32(0x1c, blocksStart, true);
  ov.setUint32(0x20, 0x40000000 | blocks.length, true);
  ov.setUint32(0x24, blocksStart + blocks.length + gap, true);
  ov.setUint32(0x28, 0x80000000, true);
  [blockT, layerT, styleT, ltypeT, { size: 0, number: 0, address: 0 }].forEach((t, i) => {
    ov.setUint16(0x2c + i * 10, t.size, true);
    ov.setUint16(0x2e + i * 10, t.number, true);
    ov.setUint32(0x32 + i * 10, t.address, true);
  });
  return out;
}
