// What an open reader can tell of a Revit .rvt (no open reader of its geometry exists): it is an OLE compound file
// (read with SheetJS's cfb) whose stream BasicFileInfo holds the Revit version, build and save paths as UTF-16 text,
// PartAtom an Atom XML entry (title, product version, update time), ProjectInformation (Revit 2019 and later) a zip
// holding one XML of the same shape whose A:features list the Project Information parameters (client name, project
// number and address, custom ones) as elements with a displayName, and RevitPreview4.0 a header followed by a PNG
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
  /** the Project Information parameters Revit writes outside its geometry (ProjectInformation, or PartAtom's features) */
  clientName: string | null;
  projectNumber: string | null;
  projectAddress: string | null;
  /** every Project Information parameter by its display name as written (name, status, issue date, custom ones …) */
  projectParameters: Record<string, string>;
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

/** numeric character references too: Revit writes a multi-line address with &#xD;&#xA; */
const xmlText = (s: string) => unescapeXml(s.replace(/&#(x[0-9a-f]+|\d+);/gi, (_, n: string) => String.fromCodePoint(n[0].toLowerCase() === 'x' ? parseInt(n.slice(1), 16) : Number(n)))).replace(/\r\n?/g, '\n').trim();

/**
 * The parameters of the Project Information features in a PartAtom-shaped XML:
 * `<Client_Name displayName="Client Name" type="system" typeOfParameter="Text">Ada &amp; Co</Client_Name>`, by
 * display name; empty ones left out.
 */
function projectParametersOf(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<([\w.-]+)\s[^>]*?\bdisplayName="([^"]*)"[^>]*>([^<]*)<\/\1>/g)) {
    const value = xmlText(m[3]);
    if (value) out[xmlText(m[2])] ??= value;
  }
  return out;
}

/** ProjectInformation: a zip of one XML (read with cfb, which reads zips too); plain XML accepted as well */
function projectInformationXml(b: Uint8Array): string | null {
  if (b[0] !== 0x50 || b[1] !== 0x4b) return new TextDecoder().decode(b);
  try {
    const zip = CFB.read(b, { type: 'buffer' });
    const entry = zip.FileIndex.find((e) => e.type === 2 && e.content && /\.xml$/i.test(e.name)) ?? zip.FileIndex.find((e) => e.type === 2 && e.content?.length);
    return entry?.content ? new TextDecoder().decode(entry.content instanceof Uint8Array ? entry.content : Uint8Array.from(entry.content as ArrayLike<number>)) : null;
  } catch {
    // a damaged stream costs the project's parameters, not the rest of the metadata
    return null;
  }
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
  const infoBytes = streamOf(cfb, 'ProjectInformation');
  const infoXml = infoBytes ? projectInformationXml(infoBytes) : null;
  const project = { ...(atomBytes ? projectParametersOf(new TextDecoder().decode(atomBytes)) : {}), ...(infoXml ? projectParametersOf(infoXml) : {}) };
  return {
    version: basic.version ?? atom.fields['product-version'] ?? null,
    build: basic.build,
    title: atom.title,
    lastSavePath: basic.lastSavePath,
    centralModelPath: basic.centralModelPath,
    worksharing: basic.worksharing,
    clientName: project['Client Name'] ?? null,
    projectNumber: project['Project Number'] ?? null,
    projectAddress: project['Project Address'] ?? null,
    projectParameters: project,
    details: { ...basic.details, ...atom.fields },
  };
}

/** The PNG preview Revit embeds, or null when it saved none; throws NotRevit when it is not an RVT. */
export function readRevitPreview(bytes: Uint8Array): Uint8Array | null {
  const preview = streamOf(open(bytes), 'RevitPreview4.0');
  return preview ? previewPng(preview) : null;
}
