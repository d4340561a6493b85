import { decompressR2004 } from './lz77.ts';

/**
 * The sections of an R2004-format DWG (AC1018, AC1024, AC1027, AC1032: 2004, 2010, 2013 and 2018 kept the same
 * container; 2007 has another). Enough to take one named section out of the file ("AcDb:AcDsPrototype_1b", where
 * 2013 on keep the ACIS data of solids): the encrypted file header at 0x80, the page map, the section map, then the
 * section's pages, each behind a 32-byte header masked by its own address, and LZ77-compressed (lz77.ts).
 * Layout as the ODA specification (chapter 4) and ACadSharp's DwgReader give it (read as documentation).
 *
 * Every offset and size comes from the file: each is checked against the file and a fixed ceiling, and a file that
 * does not hold together throws a RangeError (the caller treats the section as absent).
 */
export const R2004_VERSIONS = new Set(['AC1018', 'AC1024', 'AC1027', 'AC1032']);

/** a section larger than this is not taken out (AcDs data of real drawings runs to a few MB) */
const MAX_SECTION = 128 * 1024 * 1024;
/** pages are 0x7400 bytes in AutoCAD's files; a much larger one is a damaged or hostile map */
const MAX_PAGE = 8 * 1024 * 1024;

interface Page {
  /** its number in the page map (1…) */
  number: number;
  /** where its decompressed bytes go in the section */
  offset: number;
}

interface SectionInfo {
  name: string;
  size: number;
  pageSize: number;
  compressed: boolean;
  encrypted: boolean;
  pages: Page[];
}

/** The named section's bytes, decompressed, or null when the file has no such section (or is not R2004-format). */
export function readR2004Section(bytes: Uint8Array, name: string): Uint8Array | null {
  if (bytes.length < 0x100 || !R2004_VERSIONS.has(String.fromCharCode(...bytes.subarray(0, 6)))) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = fileHeader(bytes);
  const pageAt = pageMap(bytes, view, header.pageMapAt);
  const mapAt = pageAt.get(header.sectionMapId);
  if (mapAt === undefined) throw new RangeError('no section map page');
  const info = sectionMap(systemPage(bytes, view, mapAt)).find((s) => s.name === name);
  if (!info || info.encrypted) return null;
  // no more than its pages can hold: a size from a damaged map must not decide how much memory is taken
  if (info.size > MAX_SECTION || info.size > info.pages.length * info.pageSize) throw new RangeError(`section ${name} too large`);
  const out = new Uint8Array(info.size);
  for (const page of info.pages) {
    const at = pageAt.get(page.number);
    if (at === undefined || at + 32 > bytes.length) throw new RangeError('section page outside the file');
    // the page header is masked with 0x4164536B xor the page's own address
    const mask = (0x4164536b ^ at) >>> 0;
    const word = (k: number) => (view.getUint32(at + 4 * k, true) ^ mask) >>> 0;
    const dataSize = word(2);
    const start = at + 32;
    if (start + dataSize > bytes.length) throw new RangeError('section page data outside the file');
    const room = Math.min(info.pageSize, info.size - page.offset);
    if (room <= 0) continue;
    // a page decompresses to its full page size (the last one padded): only the section's share is kept
    const data = info.compressed ? decompressR2004(bytes, start, start + dataSize, info.pageSize) : bytes.subarray(start, start + dataSize);
    out.set(data.subarray(0, room), page.offset);
  }
  return out;
}

/** The fields of the encrypted file header (0x6C bytes at 0x80) that lead to the maps. */
function fileHeader(bytes: Uint8Array) {
  const plain = new Uint8Array(0x6c);
  // xor with the bytes of the C library's rand() seeded with 1 (the specification's "magic number sequence")
  let seed = 1;
  for (let i = 0; i < 0x6c; i++) {
    seed = (Math.imul(seed, 0x343fd) + 0x269ec3) >>> 0;
    plain[i] = bytes[0x80 + i] ^ ((seed >>> 16) & 0xff);
  }
  if (String.fromCharCode(...plain.subarray(0, 11)) !== 'AcFssFcAJMB') throw new RangeError('not an R2004 file header');
  const v = new DataView(plain.buffer);
  return { pageMapAt: Number(v.getBigUint64(0x54, true)) + 0x100, sectionMapId: v.getUint32(0x5c, true) };
}

/** A system page (page map, section map): a 20-byte header (type, sizes, compression, checksum), then its data. */
function systemPage(bytes: Uint8Array, view: DataView, at: number): Uint8Array {
  if (at + 20 > bytes.length) throw new RangeError('system page outside the file');
  const size = view.getUint32(at + 4, true);
  const compressedSize = view.getUint32(at + 8, true);
  const compression = view.getUint32(at + 12, true);
  if (size > MAX_SECTION || at + 20 + compressedSize > bytes.length) throw new RangeError('system page out of bounds');
  return compression === 2 ? decompressR2004(bytes, at + 20, at + 20 + compressedSize, size) : bytes.subarray(at + 20, at + 20 + Math.min(size, compressedSize));
}

/** Page number → its address in the file: pages follow one another from 0x100, each as large as the map says. */
function pageMap(bytes: Uint8Array, view: DataView, at: number): Map<number, number> {
  const data = systemPage(bytes, view, at);
  const d = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const pages = new Map<number, number>();
  let address = 0x100;
  for (let p = 0; p + 8 <= data.length; ) {
    const number = d.getInt32(p, true);
    const size = d.getInt32(p + 4, true);
    p += 8;
    // a gap (negative number) carries four more words: parent, left, right, 0
    if (number < 0) p += 16;
    else pages.set(number, address);
    if (size < 0) throw new RangeError('negative page size');
    address += size;
  }
  return pages;
}

/** The section map: each section's name, size, page size, flags and its pages (number and offset in the section). */
function sectionMap(data: Uint8Array): SectionInfo[] {
  const d = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const need = (p: number, n: number) => {
    if (p + n > data.length) throw new RangeError('section map ends early');
  };
  need(0, 20);
  const count = d.getInt32(0, true);
  const out: SectionInfo[] = [];
  let p = 20;
  for (let i = 0; i < count; i++) {
    need(p, 0x60);
    const size = Number(d.getBigUint64(p, true));
    const pageCount = d.getInt32(p + 8, true);
    const pageSize = d.getInt32(p + 12, true);
    const compressed = d.getInt32(p + 20, true) === 2;
    const encrypted = d.getInt32(p + 28, true) === 1;
    const raw = data.subarray(p + 32, p + 96);
    const name = String.fromCharCode(...raw.subarray(0, raw.indexOf(0) < 0 ? raw.length : raw.indexOf(0)));
    p += 96;
    if (pageCount < 0 || pageSize <= 0 || pageSize > MAX_PAGE) throw new RangeError('bad section description');
    const pages: Page[] = [];
    for (let k = 0; k < pageCount; k++) {
      need(p, 16);
      pages.push({ number: d.getInt32(p, true), offset: Number(d.getBigUint64(p + 8, true)) });
      p += 16;
    }
    out.push({ name, size, pageSize, compressed, encrypted, pages });
  }
  return out;
}
