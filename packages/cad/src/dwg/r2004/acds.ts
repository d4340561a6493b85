import { readR2004Section } from './sections.ts';

/**
 * The ACIS data of a 2013+ DWG by the handle of its entity (3DSOLID, REGION, BODY, surfaces), read from the
 * AcDs data storage ("AcDb:AcDsPrototype_1b" section), where AutoCAD keeps it apart from the entities.
 *
 * Why our own reader: LibreDWG 0.13 searches that section for "ACIS BinaryFile" … "End-of-ASM-data" and gives the
 * pieces to the solids in the order it met the solids, not by the handle the storage records. In
 * example_2013.dwg the storage holds them in another order, so the 3DSOLID got a region's data (4 edges drawn
 * instead of 18) and a region the solid's. 2018 files write "ASM BinaryFile4", which it does not look for at all.
 *
 * The storage (layout as LibreDWG's acds.spec and ACadSharp's DwgPrototype1bReader document it): a file header
 * naming the segment index; segments of 48-byte headers ("segidx", "datidx", "_data_", "blob01", …); the data
 * index lists, per "_data_" segment, where its record headers lie; a record header carries the entity handle and
 * where its value lies; a value is a 32-bit size and the bytes, or, when large, a reference to "blob01" pages.
 * Only values that are SAB ("ACIS BinaryFile…", "ASM BinaryFile…") are kept.
 */
export const ACDS_SECTION = 'AcDb:AcDsPrototype_1b';

const SEGMENT_HEADER = 48;
/** the size word of a value held in blob01 pages instead of inline */
const BLOB_REFERENCE = 0xbb106bb1;
const SAB_SIGNATURES = ['ACIS BinaryFile', 'ASM BinaryFile'];

/** Handle (upper-case hex, as the drawing model keys them) → SAB bytes; empty when the file has no such data. */
export function readAcisStorage(dwg: Uint8Array): Map<string, Uint8Array> {
  const section = readR2004Section(dwg, ACDS_SECTION);
  return section ? parseAcds(section) : new Map();
}

interface Segment {
  at: number;
  name: string;
  index: number;
  size: number;
  /** where its record values start, relative to `at` */
  dataAt: number;
}

/** The SAB values of an AcDs data storage (the section's bytes) by entity handle. Throws RangeError when damaged. */
export function parseAcds(s: Uint8Array): Map<string, Uint8Array> {
  const v = new DataView(s.buffer, s.byteOffset, s.byteLength);
  const need = (at: number, n: number) => {
    if (at < 0 || at + n > s.length) throw new RangeError('AcDs data ends early');
  };
  const u32 = (at: number) => (need(at, 4), v.getUint32(at, true));
  const u64 = (at: number) => (need(at, 8), Number(v.getBigUint64(at, true)));
  if (String.fromCharCode(...s.subarray(0, 4)) !== 'jard') throw new RangeError('not AcDs data');
  const segmentIndexAt = u32(24);
  const segmentCount = u32(32);
  const dataIndexSegment = u32(40);
  need(segmentIndexAt + SEGMENT_HEADER, segmentCount * 12);

  const segment = (at: number): Segment => {
    need(at, SEGMENT_HEADER);
    const name = String.fromCharCode(...s.subarray(at + 2, at + 8));
    return { at, name, index: u32(at + 8), size: u32(at + 16), dataAt: u32(at + 36) << 4 };
  };
  const segments: (Segment | null)[] = [];
  for (let i = 0; i < segmentCount; i++) {
    const at = u64(segmentIndexAt + SEGMENT_HEADER + i * 12);
    segments.push(at > 0 && at < s.length ? segment(at) : null);
  }

  // the data index: for each entry, the "_data_" segment and where (after its header) the record header lies
  const dataIndex = segments[dataIndexSegment];
  if (!dataIndex || dataIndex.name !== 'datidx') throw new RangeError('no AcDs data index');
  const entries = u32(dataIndex.at + SEGMENT_HEADER);
  need(dataIndex.at + SEGMENT_HEADER + 8, entries * 12);
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < entries; i++) {
    const e = dataIndex.at + SEGMENT_HEADER + 8 + i * 12;
    const seg = segments[u32(e)];
    // index 0 marks an unused entry
    if (!u32(e) || !seg || seg.name !== '_data_') continue;
    const header = seg.at + SEGMENT_HEADER + u32(e + 4);
    const handle = u64(header + 8);
    const valueAt = seg.at + seg.dataAt + u32(header + 16);
    const value = recordValue(valueAt);
    if (value && SAB_SIGNATURES.some((sig) => startsWith(value, sig))) out.set(handle.toString(16).toUpperCase(), value);
  }
  return out;

  function recordValue(at: number): Uint8Array | null {
    const size = u32(at);
    if (size !== BLOB_REFERENCE) {
      need(at + 4, size);
      return s.subarray(at + 4, at + 4 + size);
    }
    // total size (64-bit), page count, record size, page size, last page size, two unknown words, then per page its
    // blob01 segment and size
    const total = u64(at + 4);
    const pages = u32(at + 12);
    need(at + 36, pages * 8);
    if (total > s.length) throw new RangeError('AcDs blob larger than its storage');
    const bytes = new Uint8Array(total);
    let filled = 0;
    for (let p = 0; p < pages; p++) {
      const blob = segments[u32(at + 36 + p * 8)];
      if (!blob || blob.name !== 'blob01') return null;
      // a blob01 page: total size, its start offset in the value, page index, page count, then its size and bytes
      const start = u64(blob.at + SEGMENT_HEADER + 8);
      const length = u64(blob.at + SEGMENT_HEADER + 24);
      const from = blob.at + SEGMENT_HEADER + 32;
      need(from, length);
      if (start + length > total) throw new RangeError('AcDs blob page outside its value');
      bytes.set(s.subarray(from, from + length), start);
      filled += length;
    }
    return filled === total ? bytes : null;
  }
}

function startsWith(b: Uint8Array, sig: string) {
  if (b.length < sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[i] !== sig.charCodeAt(i)) return false;
  return true;
}
