import { KNOWN_ENTITY_TYPES } from '../../dxf/reader.ts';
import { decoderFor } from '../../dxf/codepage.ts';
import type { Block, Drawing, Entity } from '../../model/drawing.ts';
import { ByteReader } from './byte-reader.ts';
import { createPairStore } from '../../dxf/pair-store.ts';
import { readRecord, recordHeader, type PairStore, type ReadContext, type RecordRead } from './entities.ts';
import { readFileHeader, readHeaderVars, VERSIONS, type SectionSpan } from './file-header.ts';
import { readTables } from './tables.ts';

/** A DWG this reader reads (R10, R11/R12), by its first six bytes. */
export function isDwgR12(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && VERSIONS.has(String.fromCharCode(...bytes.subarray(0, 6)));
}

/**
 * DWG R10 (AC1006) and R11/R12 (AC1009) into the drawing model, in process and without LibreDWG: LibreDWG
 * 0.13.3 reads these files but writes no entities into their DXF. The file is the header (section pointers,
 * variables), the entities section, the tables, the blocks section (BLOCK … ENDBLK runs) and an "extras"
 * section of later additions; entities refer to layers, linetypes, styles and blocks by table index.
 * Entities come out with the group codes of an R12 DXF, so everything after the reader is shared with DXF.
 * Every read is bounded (byte-reader.ts): a damaged file ends in the spec's CadError, never a hang.
 */
export function parseDwgR12(bytes: Uint8Array): Drawing {
  const h = readFileHeader(bytes);
  const hv = readHeaderVars(bytes, h);
  const decoder = decoderFor(h.version, hv.codePage);
  const tables = readTables(bytes, h, hv.tables, decoder);
  const layerNames = tables.layers.map((l) => l.name || '0');
  const ctx: ReadContext = { r11: h.r11, decoder, tables, layerNames, blockName: () => '' };

  // Pass 1: the names of the blocks, as their BLOCK records give them (the table says only "*D" for the
  // anonymous dimension blocks "*D0", "*D1" …); the table links an index to a BLOCK record by its offset.
  const store = createPairStore();
  const named = new Map<number, { name: string; base: Block['base'] }>();
  const used = new Set<string>();
  const entryAt = new Map(tables.blocks.map((b) => [b.offset, b]));
  walk(bytes, h.blocks, ctx, createPairStore(), (rec, at) => {
    if (rec.entity?.type !== 'BLOCK') return;
    const entry = entryAt.get(at - h.blocks.start);
    let name = rec.blockName || entry?.name || `*U${named.size}`;
    // names must be unique (INSERTs find blocks by name): a clash keeps both, the second renamed
    if (used.has(name)) name = `${name}$${named.size}`;
    used.add(name);
    named.set(at, { name, base: rec.base ?? { x: 0, y: 0, z: 0 } });
  }, BLOCK);
  const byOffset = new Map([...named].map(([at, b]) => [at - h.blocks.start, b.name]));
  ctx.blockName = (index) => {
    const entry = tables.blocks[index];
    return entry ? (byOffset.get(entry.offset) ?? entry.name) : '';
  };

  const tallies = new Map<string, number>();
  const count = (e: Entity) => tallies.set(e.type, (tallies.get(e.type) ?? 0) + 1);

  // Pass 2: the entities, then the blocks' entities, then the extras (LibreDWG places those in model space too)
  const entities: Entity[] = [];
  const top = placer(entities, count);
  walk(bytes, h.entities, ctx, store, (rec) => {
    const t = rec.entity!.type;
    if (t !== 'BLOCK' && t !== 'ENDBLK') top(rec);
  });
  const blocks: Block[] = [];
  let open: { block: Block; place: (rec: RecordRead) => void } | null = null;
  walk(bytes, h.blocks, ctx, store, (rec, at) => {
    const t = rec.entity!.type;
    if (t === 'BLOCK') {
      if (open) blocks.push(open.block);
      const b = named.get(at)!;
      const block: Block = { name: b.name, base: b.base, entities: [] };
      if (rec.entity!.handle) block.handle = rec.entity!.handle;
      open = { block, place: placer(block.entities, count) };
    } else if (t === 'ENDBLK') {
      if (open) blocks.push(open.block);
      open = null;
    } else open?.place(rec); // nothing belongs to records between an ENDBLK and the next BLOCK
  });
  if (open) blocks.push((open as { block: Block }).block);
  if (h.extras.end > h.extras.start)
    walk(bytes, h.extras, ctx, store, (rec) => {
      const t = rec.entity!.type;
      if (t !== 'BLOCK' && t !== 'ENDBLK') top(rec);
    });

  const vars: Record<string, string | number> = { $ACADVER: h.version, ...hv.vars };
  // table indexes become names, as in DXF
  if (typeof vars.$CLAYER === 'number') vars.$CLAYER = layerNames[vars.$CLAYER] ?? '0';
  if (typeof vars.$TEXTSTYLE === 'number') vars.$TEXTSTYLE = tables.styles[vars.$TEXTSTYLE]?.name ?? 'STANDARD';
  const drawing: Drawing = {
    format: 'dwg',
    binary: true,
    header: { version: h.version, units: 0, codePage: hv.codePage, vars, extMin: hv.points.$EXTMIN, extMax: hv.points.$EXTMAX },
    layers: tables.layers.filter((l) => l.name),
    linetypes: tables.linetypes.filter((l) => l.name),
    textStyles: tables.styles.filter((s) => s.name),
    blocks,
    layouts: [],
    entities,
    counts: {},
    unsupported: {},
  };
  for (const [type, n] of tallies) {
    drawing.counts[type] = n;
    if (!KNOWN_ENTITY_TYPES.has(type)) drawing.unsupported[type] = n;
  }
  return drawing;
}

const BLOCK = 12;

/**
 * Every record of one section, in order (or only those of one type, the others just stepped over); the record
 * sizes chain them, and each is at least its own header long, so the walk always moves on and ends.
 */
function walk(bytes: Uint8Array, span: SectionSpan, ctx: ReadContext, store: PairStore, on: (rec: RecordRead, at: number) => void, only?: number) {
  if (span.end <= span.start) return;
  const section = new ByteReader(bytes, span.start, span.end);
  for (let at = span.start; at < span.end; ) {
    if (only !== undefined && bytes[at] !== only) {
      at += recordHeader(section, at, ctx.r11).size;
      continue;
    }
    const rec = readRecord(section, at, ctx, store);
    if (!rec.skip) on(rec, at);
    at = rec.next;
  }
}

/**
 * Places records into a list as the DXF reader does: VERTEX, ATTRIB and SEQEND records go under the POLYLINE
 * or INSERT (with attributes) before them, up to the SEQEND.
 */
function placer(into: Entity[], count: (e: Entity) => void) {
  let parent: Entity | null = null;
  return (rec: RecordRead) => {
    const e = rec.entity!;
    count(e);
    if (parent && (e.type === 'VERTEX' || e.type === 'ATTRIB' || e.type === 'SEQEND')) {
      (parent.children ??= []).push(e);
      if (e.type === 'SEQEND') parent = null;
      return;
    }
    into.push(e);
    parent = e.type === 'POLYLINE' || (e.type === 'INSERT' && rec.hasChildren) ? e : null;
  };
}
