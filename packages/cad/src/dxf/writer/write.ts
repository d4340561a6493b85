import type { DxfVersion } from '../../convert/targets.ts';
import type { Block, Drawing, Entity, Pair } from '../../model/drawing.ts';
import { pairValue } from '../reader.ts';
import { Handles, layoutHandle } from './handles.ts';
import { R12_TYPES, toR12, type R12Record } from './r12.ts';
import { TagWriter, textEncoder, writableCodePage } from './tags.ts';
import { ENTITY_SINCE, traitsOf, type VersionTraits } from './versions.ts';
import { writeObjects, writeClasses, type ObjectHandles } from './objects.ts';
import { writeTables, type TableNames } from './tables.ts';
import { writeHeader } from './header.ts';
import { withSubclasses } from './subclasses.ts';

export interface WriteDxfOptions {
  version: DxfVersion;
}

/** The written file and what the version could not hold as it was. */
export interface DxfWritten {
  bytes: Buffer;
  version: DxfVersion;
  /** entities left out, by type (R12 has no place for them, or the version predates their type) */
  dropped: Record<string, number>;
  /** entities written as another type, by "FROM→TO" (R12: LWPOLYLINE→POLYLINE, MTEXT→TEXT …) */
  converted: Record<string, number>;
}

/** A block as written: its names and handles, and the layout it draws when it is one's. */
export interface OutBlock {
  src: Block;
  name: string;
  handle: string;
  record: string;
  end: string;
  paper: boolean;
  layout?: OutLayout;
}

export interface OutLayout {
  name: string;
  tabOrder: number;
  handle: string;
  block: OutBlock;
  pairs?: Pair[];
}

const isModelName = (n: string) => /^[*$]model_space$/i.test(n);
const isPaperName = (n: string) => /^[*$]paper_space\d*$/i.test(n);
/** codes that point at another record (DXF reference, "Group code value types": handles and object ids) */
const isPointer = (c: number) => (c >= 330 && c <= 369) || (c >= 390 && c <= 399) || c === 480 || c === 481 || c === 1005;
/** pointers an entity can lose without changing what it is: material, visual style, plot style, its dictionary */
const OPTIONAL_POINTERS = new Set([347, 348, 390, 360, 361]);

/** writeDxf, with the report of what the chosen version could not hold. */
export function writeDxfDetailed(d: Drawing, o: WriteDxfOptions): DxfWritten {
  return new DxfOut(d, traitsOf(o.version)).write();
}

/** The drawing as an ASCII DXF of the chosen version (R12 to 2018). */
export function writeDxf(d: Drawing, o: WriteDxfOptions): Buffer {
  return writeDxfDetailed(d, o).bytes;
}

class DxfOut {
  readonly handles: Handles;
  readonly entityHandle = new Map<Entity, string>();
  /** record handles of the source → handles written (the same unless a damaged file had one twice) */
  readonly remap = new Map<string, string>();
  readonly dropped: Record<string, number> = {};
  readonly converted: Record<string, number> = {};
  readonly names: TableNames = { layers: new Set(), linetypes: new Set(), styles: new Set(), dimStyles: new Set(), appids: new Set(['ACAD']) };
  blocks: OutBlock[] = [];
  model!: OutBlock;
  paper!: OutBlock;
  layouts: OutLayout[] = [];
  objects!: ObjectHandles;

  constructor(
    readonly d: Drawing,
    readonly t: VersionTraits,
  ) {
    this.handles = new Handles(d);
  }

  write(): DxfWritten {
    const { d, t } = this;
    // handles of entities first: they are what a user's references and markups name
    const claim = (es: Entity[]) => {
      for (const e of es) {
        this.entityHandle.set(e, this.handles.keep(e.handle));
        this.noteNames(e);
        if (e.children) claim(e.children);
      }
    };
    claim(d.entities);
    for (const b of d.blocks) claim(b.entities);
    this.planBlocks();
    const keepRecord = (h: string | undefined) => {
      const out = this.handles.keep(h);
      if (h) this.remap.set(h.toUpperCase(), out);
      return out;
    };
    const recordHandles = {
      layers: d.layers.map((l) => keepRecord(l.handle)),
      linetypes: d.linetypes.map((l) => keepRecord(l.handle)),
      styles: d.textStyles.map((s) => keepRecord(s.handle)),
      dimStyles: (d.dimStyles ?? []).map((s) => keepRecord(s.handle)),
    };
    const imageDefs = Object.keys(d.imageDefs ?? {}).map((h) => [h, keepRecord(h)] as const);
    for (const l of this.layouts) l.handle = keepRecord(layoutHandle(l.pairs));
    this.objects = t.r12 ? ({} as ObjectHandles) : objectHandles(this.handles, t);

    const body = new TagWriter();
    if (!t.r12) writeClasses(body, d, t, this.usedTypes());
    writeTables(body, this, recordHandles);
    this.writeBlocks(body);
    this.section(body, 'ENTITIES', () => {
      for (const e of d.entities) this.writeEntity(body, e, e.paperSpace ? this.paper.record : this.model.record);
    });
    if (!t.r12) writeObjects(body, this, imageDefs);
    body.put(0, 'EOF');

    const head = new TagWriter();
    writeHeader(head, d, t, this.handles.seed());
    for (const line of body.lines) head.lines.push(line);
    const encode = textEncoder(t.utf8, writableCodePage(d.header.codePage));
    return { bytes: head.bytes(encode), version: t.version, dropped: this.dropped, converted: this.converted };
  }

  section(w: TagWriter, name: string, body: () => void) {
    w.put(0, 'SECTION');
    w.put(2, name);
    body();
    w.put(0, 'ENDSEC');
  }

  /** the names an entity uses, so the tables hold every one of them */
  private noteNames(e: Entity) {
    this.names.layers.add(e.layer);
    if (e.linetype) this.names.linetypes.add(e.linetype);
    const style = e.type === 'DIMENSION' || e.type === 'LEADER' || e.type === 'TOLERANCE' ? 'dim' : e.type === 'TEXT' || e.type === 'MTEXT' || e.type === 'ATTRIB' || e.type === 'ATTDEF' || e.type === 'SHAPE' ? 'text' : null;
    if (style) {
      const v = pairValue(e, style === 'dim' ? 3 : 7);
      if (v !== undefined && e.type !== 'SHAPE') (style === 'dim' ? this.names.dimStyles : this.names.styles).add(String(v));
    }
    if (!this.t.r12) for (const [c, v] of e.pairs) if (c === 1001) this.names.appids.add(String(v));
  }

  private usedTypes(): Set<string> {
    const types = new Set<string>();
    const walk = (es: Entity[]) => es.forEach((e) => (types.add(e.type), e.children && walk(e.children)));
    walk(this.d.entities);
    this.d.blocks.forEach((b) => walk(b.entities));
    return types;
  }

  /**
   * Blocks and layouts: model and paper space blocks exist in every file we write (made when the source, an R12
   * file, has none), each paper block has its layout and each layout its block.
   */
  private planBlocks() {
    const { d, t } = this;
    const out: OutBlock[] = [];
    for (const b of d.blocks) {
      const model = isModelName(b.name);
      const paper = isPaperName(b.name);
      // R12 has one paper space: the other layouts' blocks are left out (their entities counted as dropped)
      if (t.r12 && paper && !/^[*$]paper_space$/i.test(b.name)) {
        for (const e of b.entities) this.drop(e.type);
        continue;
      }
      const name = model ? '*Model_Space' : /^[*$]paper_space$/i.test(b.name) ? '*Paper_Space' : b.name;
      const record = this.handles.keep(b.recordHandle);
      if (b.recordHandle) this.remap.set(b.recordHandle.toUpperCase(), record);
      out.push({ src: b, name, handle: this.handles.keep(b.handle), record, end: '', paper });
    }
    const make = (name: string): OutBlock => {
      const b: OutBlock = { src: { name, base: { x: 0, y: 0, z: 0 }, entities: [] }, name, handle: this.handles.fresh(), record: this.handles.fresh(), end: '', paper: name !== '*Model_Space' };
      out.unshift(b);
      return b;
    };
    this.paper = out.find((b) => b.name === '*Paper_Space') ?? make('*Paper_Space');
    this.model = out.find((b) => b.name === '*Model_Space') ?? make('*Model_Space');
    for (const b of out) b.end = this.handles.fresh();
    this.blocks = out;
    if (t.r12) return;

    // layouts by the block record they draw
    const byRecord = new Map(out.map((b) => [b.src.recordHandle?.toUpperCase() ?? '', b] as const));
    const sorted = [...d.layouts].sort((a, b) => a.tabOrder - b.tabOrder);
    for (const l of sorted) {
      let b = l.blockRecord ? byRecord.get(l.blockRecord.toUpperCase()) : undefined;
      if (!b && l.name.toLowerCase() === 'model') b = this.model;
      if (!b || b.layout || (l.name.toLowerCase() === 'model') !== (b === this.model)) b = out.find((x) => x.paper && !x.layout && x !== this.model);
      if (!b) {
        const n = out.filter((x) => x.paper).length - 1;
        b = { src: { name: `*Paper_Space${n}`, base: { x: 0, y: 0, z: 0 }, entities: [] }, name: `*Paper_Space${n}`, handle: this.handles.fresh(), record: this.handles.fresh(), end: this.handles.fresh(), paper: true };
        out.push(b);
      }
      b.layout = { name: l.name, tabOrder: l.tabOrder, handle: '', block: b, pairs: l.pairs };
      this.layouts.push(b.layout);
    }
    if (!this.model.layout) this.layouts.unshift((this.model.layout = { name: 'Model', tabOrder: 0, handle: '', block: this.model }));
    let n = 1;
    for (const b of out) {
      if (!b.paper || b.layout) continue;
      while (this.layouts.some((l) => l.name === `Layout${n}`)) n++;
      this.layouts.push((b.layout = { name: `Layout${n}`, tabOrder: this.layouts.length, handle: '', block: b }));
    }
  }

  private writeBlocks(w: TagWriter) {
    const { t } = this;
    this.section(w, 'BLOCKS', () => {
      for (const b of this.blocks) {
        if (t.r12 && (b === this.model || b === this.paper) && !b.src.entities.length) continue;
        const name = t.r12 && b === this.model ? '$MODEL_SPACE' : t.r12 && b === this.paper ? '$PAPER_SPACE' : b.name;
        this.blockMarker(w, b, 'BLOCK', b.handle, 'AcDbBlockBegin');
        w.put(2, name);
        w.put(70, b.src.flags ?? (name.startsWith('*') && b !== this.model && b !== this.paper ? 1 : 0));
        w.put(10, b.src.base.x);
        w.put(20, b.src.base.y);
        w.put(30, b.src.base.z);
        w.put(3, name);
        w.put(1, '');
        for (const e of b.src.entities) this.writeEntity(w, e, b.record);
        this.blockMarker(w, b, 'ENDBLK', b.end, 'AcDbBlockEnd');
      }
    });
  }

  /** The entity head that BLOCK and ENDBLK share: handle, owner record, paper flag, layer 0, then their subclass. */
  private blockMarker(w: TagWriter, b: (typeof this.blocks)[number], type: 'BLOCK' | 'ENDBLK', handle: string, subclass: string) {
    const r12 = this.t.r12;
    w.put(0, type);
    w.put(5, handle);
    if (!r12) {
      w.put(330, b.record);
      w.put(100, 'AcDbEntity');
    }
    if (b.paper) w.put(67, 1);
    w.put(8, '0');
    if (!r12) w.put(100, subclass);
  }

  drop(type: string) {
    this.dropped[type] = (this.dropped[type] ?? 0) + 1;
  }

  private writeEntity(w: TagWriter, e: Entity, owner: string) {
    if (this.t.r12) return this.writeR12(w, e);
    const since = ENTITY_SINCE[e.type];
    // a table before 2004 is what it shows: an insert of its block (R12 does the same)
    if (e.type === 'ACAD_TABLE' && since > this.t.acadver && pairValue(e, 2) !== undefined) return this.writeTableAsInsert(w, e, owner);
    if (since && since > this.t.acadver) return this.drop(e.type);
    const handle = this.entityHandle.get(e) ?? this.handles.fresh();
    w.put(0, e.type);
    w.put(5, handle);
    w.put(330, owner);
    w.pairs(this.entityPairs(e));
    const children = e.children ?? [];
    for (const c of children) this.writeEntity(w, c, handle);
    // a POLYLINE, or an INSERT with attributes, ends with its SEQEND
    if ((e.type === 'POLYLINE' || (e.type === 'INSERT' && children.length)) && children.at(-1)?.type !== 'SEQEND') {
      w.put(0, 'SEQEND');
      w.put(5, this.handles.fresh());
      w.put(330, handle);
      w.put(100, 'AcDbEntity');
      w.put(8, e.layer);
    }
  }

  /**
   * An entity's own pairs for 2000 on: its handle and owner are written by the caller; reactor and extension
   * dictionary groups go (the objects they name are not written); pointers to records this file does not hold
   * are dropped where the entity can do without them, else turned to the standard record the file has.
   */
  private entityPairs(e: Entity): Pair[] {
    const { t } = this;
    const out: Pair[] = [];
    let group = false;
    let marker = false;
    let embedded = false;
    let subclass = '';
    for (const p of withSubclasses(e.type, e.pairs)) {
      const [c, v] = p;
      if (c === 5) continue;
      if (c === 102) {
        const s = String(v);
        if (s.startsWith('{')) group = true;
        else if (s === '}') group = false;
        continue;
      }
      if (group) continue;
      if (c === 100) {
        marker = true;
        subclass = String(v);
      }
      if (c === 330 && !marker) continue;
      // 2018's attribute text kept as embedded MTEXT: older versions have no place for it
      if (c === 101 && t.acadver < 'AC1032') embedded = true;
      if (embedded && c < 1000) continue;
      if (!t.trueColor && (c === 420 || c === 430 || c === 440)) continue;
      if (isPointer(c) && typeof v === 'string') {
        const up = v.toUpperCase();
        const mapped = this.remap.get(up);
        if (mapped) {
          out.push([c, mapped]);
          continue;
        }
        if (up === '0' || this.handles.has(up)) {
          out.push(p);
          continue;
        }
        if (OPTIONAL_POINTERS.has(c)) continue;
        const standard = this.standardFor(e.type, subclass, c);
        if (standard) out.push([c, standard]);
        else out.push([c, '0']);
        continue;
      }
      out.push(p);
    }
    return out;
  }

  private writeTableAsInsert(w: TagWriter, e: Entity, owner: string) {
    const [record] = toR12(e).records;
    this.converted['ACAD_TABLE→INSERT'] = (this.converted['ACAD_TABLE→INSERT'] ?? 0) + 1;
    w.put(0, 'INSERT');
    w.put(5, this.entityHandle.get(e) ?? this.handles.fresh());
    w.put(330, owner);
    w.pairs(withSubclasses('INSERT', record.pairs));
  }

  /** the standard style a pointer falls back to when the style it named is not in this file */
  private standardFor(type: string, _subclass: string, code: number): string | undefined {
    if (type === 'MLINE' && code === 340) return this.objects.mlineStandard;
    if ((type === 'MULTILEADER' || type === 'MLEADER') && code === 340) return this.objects.mleaderStandard;
    if (type === 'ACAD_TABLE' && code === 342) return this.objects.tableStandard;
    return undefined;
  }

  private writeR12(w: TagWriter, e: Entity) {
    const { records, as } = toR12(e);
    if (!records.length) return this.drop(e.type);
    if (as) this.converted[`${e.type}→${as}`] = (this.converted[`${e.type}→${as}`] ?? 0) + 1;
    const put = (r: R12Record) => {
      w.put(0, r.type);
      w.put(5, (r.source && this.entityHandle.get(r.source)) ?? this.handles.fresh());
      w.pairs(r.pairs);
      for (const c of r.children ?? []) put(c);
      if ((r.type === 'POLYLINE' || (r.type === 'INSERT' && r.children?.length)) && r.children?.at(-1)?.type !== 'SEQEND') {
        w.put(0, 'SEQEND');
        w.put(5, this.handles.fresh());
        w.put(8, String(r.pairs.find((p) => p[0] === 8)?.[1] ?? '0'));
      }
    };
    for (const r of records) {
      if (!R12_TYPES.has(r.type)) continue;
      put(r);
    }
  }
}

function objectHandles(h: Handles, t: VersionTraits): ObjectHandles {
  const f = () => h.fresh();
  return {
    root: f(),
    groups: f(),
    layouts: f(),
    mlineStyles: f(),
    mlineStandard: f(),
    plotSettings: f(),
    plotStyles: f(),
    plotStyleNormal: f(),
    images: f(),
    mleaderStyles: t.acadver >= 'AC1021' ? f() : '',
    mleaderStandard: t.acadver >= 'AC1021' ? f() : '',
    tableStyles: t.acadver >= 'AC1018' ? f() : '',
    tableStandard: t.acadver >= 'AC1018' ? f() : '',
  };
}

export type { DxfOut };
