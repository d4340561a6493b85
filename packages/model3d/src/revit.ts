// What an open reader can tell of a Revit .rvt (no open reader of its geometry exists): it is an OLE compound file
// (read with SheetJS's cfb) whose stream BasicFileInfo holds the Revit version, build and save paths as UTF-16 text,
// PartAtom an Atom XML entry (title, product version, update time), and RevitPreview4.0 a header followed by a PNG
// preview. The geometry needs an IFC export from Revit.
import CFB from 'cfb';
import { unescapeXml } from './xml-text.ts';

export interface RevitInfo {
  /** the Revit release that saved it ("2021") */
  version: string | null;
  /** its build ("20200826_1250(x64)") */
  build: string | null;
  /** the title PartAtom gives (the project's or family's name) */
  title: string | null;
  /** where Revit last saved it, and the central model when workshared */
  lastSavePath: string | null;
  centralModelPath: string | null;
  worksharing: string | null;
  /** the other "Key: value" lines of BasicFileInfo and PartAtom's fields, as they are written */
  details: Record<string, string>;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** BasicFileInfo lines kept in `details` (the rest are GUIDs and counters) */
const DETAIL_KEYS = ['Author', 'Locale when saved', 'Username', 'Unique Document GUID', 'Project Spark File', 'Open Workset Default'];

/** an error of a file that is not an RVT (not a compound file, or none of Revit's streams) */
export class NotRevit extends Error {}

function streamOf(cfb: CFB.CFB$Container, name: string): Uint8Array | null {
  const e = CFB.find(cfb, `/${name}`) ?? CFB.find(cfb, name);
  if (!e?.content) return null;
  return e.content instanceof Uint8Array ? e.content : Uint8Array.from(e.content as ArrayLike<number>);
}

/** UTF-16LE text in both alignments (length-prefixed strings put text at odd offsets too), control characters as line breaks */
function utf16Text(b: Uint8Array): string {
  const decode = (from: number) => new TextDecoder('utf-16le').decode(b.subarray(from, from + ((b.length - from) & ~1)));
  return [decode(0), decode(1)].join('\n').replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\ufffd]+/g, '\n');
}

function basicFileInfo(b: Uint8Array) {
  const text = utf16Text(b);
  const line = (key: string) => new RegExp(`${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:[ \\t]*([^\\r\\n]*)`).exec(text)?.[1]?.trim() || null;
  // 2019 and later: "Format: 2021"; earlier: "Autodesk Revit 2015 (Build: 20140223_1515(x64))"
  const old = /Autodesk Revit[^\r\n(]*?(\d{4})[^\r\n(]*\(Build:\s*([^\r\n)]*\)?)\)/.exec(text);
  const details: Record<string, string> = {};
  for (const k of DETAIL_KEYS) {
    const v = line(k);
    if (v) details[k] = v;
  }
  return {
    version: old?.[1] ?? line('Format')?.match(/\d{4}/)?.[0] ?? null,
    build: old?.[2] ?? line('Build'),
    lastSavePath: line('Last Save Path'),
    centralModelPath: line('Central Model Path'),
    worksharing: line('Worksharing'),
    details,
  };
}

/** PartAtom's entry title and its A:* fields (product, product-version, updated …) */
function partAtom(b: Uint8Array): { title: string | null; fields: Record<string, string> } {
  const xml = new TextDecoder().decode(b);
  const title = /<(?:\w+:)?title>([^<]*)<\/(?:\w+:)?title>/.exec(xml)?.[1];
  const fields: Record<string, string> = {};
  for (const m of xml.matchAll(/<A:([\w-]+)>([^<]+)<\/A:\1>/g)) fields[m[1]] ??= unescapeXml(m[2].trim());
  return { title: title ? unescapeXml(title.trim()) : null, fields };
}

/** the PNG inside RevitPreview4.0: from its signature to the end of its IEND chunk */
function previewPng(b: Uint8Array): Uint8Array | null {
  for (let i = 0; i + 8 <= b.length; i++) {
    if (!PNG_SIGNATURE.every((v, k) => b[i + k] === v)) continue;
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let at = i + 8;
    while (at + 12 <= b.length) {
      const len = dv.getUint32(at);
      const type = String.fromCharCode(b[at + 4], b[at + 5], b[at + 6], b[at + 7]);
      at += 12 + len;
      if (type === 'IEND') return at <= b.length ? b.slice(i, at) : null;
    }
    return null;
  }
  return null;
}

function open(bytes: Uint8Array): CFB.CFB$Container {
  let cfb: CFB.CFB$Container;
  try {
    cfb = CFB.read(bytes, { type: 'buffer' });
  } catch (e) {
    throw new NotRevit(`not an OLE compound file: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!streamOf(cfb, 'BasicFileInfo')) throw new NotRevit('no BasicFileInfo stream');
  return cfb;
}

/** The metadata of an RVT (or RFA) file; throws NotRevit when it is not one. */
export function readRevitInfo(bytes: Uint8Array): RevitInfo {
  const cfb = open(bytes);
  const basic = basicFileInfo(streamOf(cfb, 'BasicFileInfo')!);
  const atomBytes = streamOf(cfb, 'PartAtom');
  const atom = atomBytes ? partAtom(atomBytes) : { title: null, fields: {} };
  return {
    version: basic.version ?? atom.fields['product-version'] ?? null,
    build: basic.build,
    title: atom.title,
    lastSavePath: basic.lastSavePath,
    centralModelPath: basic.centralModelPath,
    worksharing: basic.worksharing,
    details: { ...basic.details, ...atom.fields },
  };
}

/** The PNG preview Revit embeds, or null when it saved none; throws NotRevit when it is not an RVT. */
export function readRevitPreview(bytes: Uint8Array): Uint8Array | null {
  const preview = streamOf(open(bytes), 'RevitPreview4.0');
  return preview ? previewPng(preview) : null;
}
