/**
 * ACIS solids for tests, written as AutoCAD writes them: SAT text (ACIS 7: three header lines, every record with an
 * attribute, an id and one more pointer) or SAB binary (ACIS 21800, AutoCAD 2013 on). A box of six planar faces, a
 * cylinder (two planes and a cone surface of sine 0), and a whole sphere (one face without loops), each with its
 * known bounding box and volume. Faces, loops and coedges are oriented as ACIS has them: the face to the left of
 * each coedge seen from outside; the cylinder's bottom face is a plane of normal +z used reversed, so both face
 * senses are exercised.
 */
type Field = { p: number } | { i: number } | { n: number } | { w: string } | { b: boolean; sat: string };

interface Rec {
  type: string;
  fields: Field[];
}

const ptr = (p: number): Field => ({ p });
const num = (...ns: number[]): Field[] => ns.map((n) => ({ n }));
const word = (w: string): Field => ({ w });
/** a logical: a word in SAT (forward/reversed, single/double, I …), a boolean in SAB (true: the second meaning) */
const logical = (sat: string, b: boolean): Field => ({ b, sat });

export interface AcisSolid {
  records: Rec[];
  bbox: { min: [number, number, number]; max: [number, number, number] };
  volume: number;
}

/** Builds the topology body → lump → shell → faces → loops → coedges → edges → vertices → points. */
class Builder {
  records: Rec[] = [];
  add(type: string, fields: Field[] = []): number {
    this.records.push({ type, fields });
    return this.records.length - 1;
  }
  set(i: number, fields: Field[]) {
    this.records[i].fields = fields;
  }
  point(p: number[]) {
    return this.add('point', num(...p));
  }
  vertex(p: number[]) {
    const v = this.add('vertex');
    const pt = this.point(p);
    this.set(v, [ptr(-1), { i: 0 }, ptr(pt)]);
    return v;
  }
}

interface EdgeSpec {
  from: number;
  to: number;
  curve: number;
  t0: number;
  t1: number;
}
interface LoopSpec {
  coedges: { edge: number; reversed: boolean }[];
}
interface FaceSpec {
  surface: number;
  reversed: boolean;
  loops: LoopSpec[];
}

function solid(b: Builder, edges: EdgeSpec[], faces: FaceSpec[]): Rec[] {
  // records: body, lump, shell first so the body is record 0
  const body = 0, lump = 1, shell = 2;
  const faceIdx = faces.map(() => b.add('face'));
  const edgeIdx = edges.map(() => b.add('edge'));
  const coedgesOfEdge: number[][] = edges.map(() => []);
  faces.forEach((f, fi) => {
    const loops = f.loops.map(() => b.add('loop'));
    f.loops.forEach((l, li) => {
      const co = l.coedges.map(() => b.add('coedge'));
      l.coedges.forEach((c, ci) => {
        coedgesOfEdge[c.edge].push(co[ci]);
        b.set(co[ci], [ptr(co[(ci + 1) % co.length]), ptr(co[(ci + co.length - 1) % co.length]), ptr(-1), ptr(edgeIdx[c.edge]), logical(c.reversed ? 'reversed' : 'forward', c.reversed), ptr(loops[li]), ptr(-1)]);
      });
      b.set(loops[li], [ptr(loops[li + 1] ?? -1), ptr(co[0]), ptr(faceIdx[fi])]);
    });
    b.set(faceIdx[fi], [ptr(faceIdx[fi + 1] ?? -1), ptr(loops[0] ?? -1), ptr(shell), ptr(-1), ptr(f.surface), logical(f.reversed ? 'reversed' : 'forward', f.reversed), logical('single', false), logical('out', false)]);
  });
  // partners: the two coedges of an edge point at each other
  for (const pair of coedgesOfEdge) {
    if (pair.length !== 2) continue;
    (b.records[pair[0]].fields[2] as { p: number }).p = pair[1];
    (b.records[pair[1]].fields[2] as { p: number }).p = pair[0];
  }
  edges.forEach((e, k) => {
    b.set(edgeIdx[k], [ptr(e.from), ...num(e.t0), ptr(e.to), ...num(e.t1), ptr(coedgesOfEdge[k][0] ?? -1), ptr(e.curve), logical('forward', false), word('unknown')]);
  });
  b.set(body, [ptr(lump), ptr(-1), ptr(-1)]);
  b.set(lump, [ptr(-1), ptr(shell), ptr(body)]);
  b.set(shell, [ptr(-1), ptr(-1), ptr(faceIdx[0]), ptr(-1), ptr(lump)]);
  return b.records;
}

function start(): Builder {
  const b = new Builder();
  b.add('body');
  b.add('lump');
  b.add('shell');
  return b;
}

const plane = (b: Builder, root: number[], normal: number[], udir: number[]) => b.add('plane-surface', [...num(...root, ...normal, ...udir), logical('forward_v', false), word('I'), word('I'), word('I'), word('I')]);

/** An axis-aligned box from `min` to `max`. */
export function boxSolid(min: [number, number, number], max: [number, number, number]): AcisSolid {
  const b = start();
  const c = (i: number) => [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]];
  const v = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => b.vertex(c(i)));
  const edges: EdgeSpec[] = [];
  const edgeOf = new Map<string, number>();
  // a face as its corners counter-clockwise seen from outside; each edge made once, its coedges run along or against it
  const face = (corners: number[], normal: number[]): FaceSpec => {
    const coedges = corners.map((a, k) => {
      const z = corners[(k + 1) % 4];
      const key = [Math.min(a, z), Math.max(a, z)].join();
      let e = edgeOf.get(key);
      if (e === undefined) {
        const [p, q] = [c(Math.min(a, z)), c(Math.max(a, z))];
        const d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
        const len = Math.hypot(d[0], d[1], d[2]);
        const curve = b.add('straight-curve', [...num(...p, ...d.map((x) => x / len)), word('I'), word('I')]);
        e = edges.push({ from: v[Math.min(a, z)], to: v[Math.max(a, z)], curve, t0: 0, t1: len }) - 1;
        edgeOf.set(key, e);
      }
      return { edge: e, reversed: a > z };
    });
    const udir = normal[0] ? [0, 1, 0] : [1, 0, 0];
    return { surface: plane(b, c(corners[0]), normal, udir), reversed: false, loops: [{ coedges }] };
  };
  const faces = [
    face([0, 2, 3, 1], [0, 0, -1]),
    face([4, 5, 7, 6], [0, 0, 1]),
    face([0, 1, 5, 4], [0, -1, 0]),
    face([2, 6, 7, 3], [0, 1, 0]),
    face([0, 4, 6, 2], [-1, 0, 0]),
    face([1, 3, 7, 5], [1, 0, 0]),
  ];
  const size = max.map((x, k) => x - min[k]);
  return { records: solid(b, edges, faces), bbox: { min, max }, volume: size[0] * size[1] * size[2] };
}

/** A cylinder standing on `base` (its bottom centre) with `radius` and `height` along +z. */
export function cylinderSolid(base: [number, number, number], radius: number, height: number): AcisSolid {
  const b = start();
  const [x, y, z] = base;
  const v0 = b.vertex([x + radius, y, z]);
  const v1 = b.vertex([x + radius, y, z + height]);
  const circle = (cz: number) => b.add('ellipse-curve', [...num(x, y, cz, 0, 0, 1, radius, 0, 0, 1), word('I'), word('I')]);
  const edges: EdgeSpec[] = [
    { from: v0, to: v0, curve: circle(z), t0: 0, t1: 2 * Math.PI },
    { from: v1, to: v1, curve: circle(z + height), t0: 0, t1: 2 * Math.PI },
  ];
  const side = b.add('cone-surface', [...num(x, y, z, 0, 0, 1, radius, 0, 0, 1), word('I'), word('I'), ...num(0, 1, radius), logical('forward', false), word('I'), word('I'), word('I'), word('I')]);
  const faces: FaceSpec[] = [
    // the bottom: a plane of normal +z used reversed; its circle runs clockwise seen from below
    { surface: plane(b, [x, y, z], [0, 0, 1], [1, 0, 0]), reversed: true, loops: [{ coedges: [{ edge: 0, reversed: true }] }] },
    { surface: plane(b, [x, y, z + height], [0, 0, 1], [1, 0, 0]), reversed: false, loops: [{ coedges: [{ edge: 1, reversed: false }] }] },
    { surface: side, reversed: false, loops: [{ coedges: [{ edge: 0, reversed: false }] }, { coedges: [{ edge: 1, reversed: true }] }] },
  ];
  return { records: solid(b, edges, faces), bbox: { min: [x - radius, y - radius, z], max: [x + radius, y + radius, z + height] }, volume: Math.PI * radius * radius * height };
}

/**
 * A cone standing on `base` (its base centre) with `radius` and `height` along +z, as AutoCAD's CONE writes it: the
 * side a cone surface whose radius shrinks along its axis (negative sine), bounded by the base circle and a loop of
 * one edge without a curve at the apex.
 */
export function coneSolid(base: [number, number, number], radius: number, height: number): AcisSolid {
  const b = start();
  const [x, y, z] = base;
  const v0 = b.vertex([x + radius, y, z]);
  const apex = b.vertex([x, y, z + height]);
  const circle = b.add('ellipse-curve', [...num(x, y, z, 0, 0, 1, radius, 0, 0, 1), word('I'), word('I')]);
  const edges: EdgeSpec[] = [
    { from: v0, to: v0, curve: circle, t0: 0, t1: 2 * Math.PI },
    { from: apex, to: apex, curve: -1, t0: 0, t1: 0 },
  ];
  const slant = Math.hypot(radius, height);
  const side = b.add('cone-surface', [...num(x, y, z, 0, 0, 1, radius, 0, 0, 1), word('I'), word('I'), ...num(-radius / slant, height / slant, radius), logical('forward', false), word('I'), word('I'), word('I'), word('I')]);
  const faces: FaceSpec[] = [
    { surface: plane(b, [x, y, z], [0, 0, 1], [1, 0, 0]), reversed: true, loops: [{ coedges: [{ edge: 0, reversed: true }] }] },
    { surface: side, reversed: false, loops: [{ coedges: [{ edge: 0, reversed: false }] }, { coedges: [{ edge: 1, reversed: false }] }] },
  ];
  return { records: solid(b, edges, faces), bbox: { min: [x - radius, y - radius, z], max: [x + radius, y + radius, z + height] }, volume: (Math.PI * radius * radius * height) / 3 };
}

/**
 * Half a cylinder (the side y ≥ 0 of one standing on the origin): its curved face is bounded by two arcs and two
 * lines, a patch that does not go around the axis (as a fillet is).
 */
export function halfCylinderSolid(radius: number, height: number): AcisSolid {
  const b = start();
  const [r, h] = [radius, height];
  const [A, B, C, D] = [b.vertex([r, 0, 0]), b.vertex([-r, 0, 0]), b.vertex([r, 0, h]), b.vertex([-r, 0, h])];
  const arc = (z: number) => b.add('ellipse-curve', [...num(0, 0, z, 0, 0, 1, r, 0, 0, 1), word('I'), word('I')]);
  const line = (p: number[], d: number[]) => b.add('straight-curve', [...num(...p, ...d), word('I'), word('I')]);
  const edges: EdgeSpec[] = [
    { from: A, to: B, curve: arc(0), t0: 0, t1: Math.PI },
    { from: C, to: D, curve: arc(h), t0: 0, t1: Math.PI },
    { from: B, to: A, curve: line([-r, 0, 0], [1, 0, 0]), t0: 0, t1: 2 * r },
    { from: D, to: C, curve: line([-r, 0, h], [1, 0, 0]), t0: 0, t1: 2 * r },
    { from: A, to: C, curve: line([r, 0, 0], [0, 0, 1]), t0: 0, t1: h },
    { from: B, to: D, curve: line([-r, 0, 0], [0, 0, 1]), t0: 0, t1: h },
  ];
  const co = (edge: number, reversed = false) => ({ edge, reversed });
  const side = b.add('cone-surface', [...num(0, 0, 0, 0, 0, 1, r, 0, 0, 1), word('I'), word('I'), ...num(0, 1, r), logical('forward', false), word('I'), word('I'), word('I'), word('I')]);
  const faces: FaceSpec[] = [
    { surface: plane(b, [0, 0, 0], [0, 0, 1], [1, 0, 0]), reversed: true, loops: [{ coedges: [co(2, true), co(0, true)] }] },
    { surface: plane(b, [0, 0, h], [0, 0, 1], [1, 0, 0]), reversed: false, loops: [{ coedges: [co(1), co(3)] }] },
    { surface: plane(b, [0, 0, 0], [0, -1, 0], [1, 0, 0]), reversed: false, loops: [{ coedges: [co(4), co(3, true), co(5, true), co(2)] }] },
    { surface: side, reversed: false, loops: [{ coedges: [co(0), co(5), co(1, true), co(4, true)] }] },
  ];
  return { records: solid(b, edges, faces), bbox: { min: [-r, 0, 0], max: [r, r, h] }, volume: (Math.PI * r * r * h) / 2 };
}

/** A whole torus about +z (one face without loops): major radius `R`, minor `r`. */
export function torusSolid(centre: [number, number, number], R: number, r: number): AcisSolid {
  const b = start();
  const s = b.add('torus-surface', [...num(...centre, 0, 0, 1, R, r, 1, 0, 0), logical('forward_v', false), word('I'), word('I'), word('I'), word('I')]);
  const [x, y, z] = centre;
  return { records: solid(b, [], [{ surface: s, reversed: false, loops: [] }]), bbox: { min: [x - R - r, y - R - r, z - r], max: [x + R + r, y + R + r, z + r] }, volume: 2 * Math.PI * Math.PI * R * r * r };
}

/** A whole sphere: one face without loops, as AutoCAD's SPHERE writes it. */
export function sphereSolid(centre: [number, number, number], radius: number): AcisSolid {
  const b = start();
  const s = b.add('sphere-surface', [...num(...centre, radius, 1, 0, 0, 0, 0, 1), logical('forward_v', false), word('I'), word('I'), word('I'), word('I')]);
  const r = radius;
  return { records: solid(b, [], [{ surface: s, reversed: false, loops: [] }]), bbox: { min: centre.map((c) => c - r) as never, max: centre.map((c) => c + r) as never }, volume: (4 / 3) * Math.PI * r ** 3 };
}

/** The records as ACIS 7 SAT text (what R2004–2010 DXF holds, before DXF's character encoding). */
export function toSat(records: Rec[], o: { numericLogicals?: boolean } = {}): string {
  // numericLogicals: senses and sides as 0 / 1, as the SAT of R13/R14 drawings comes out of LibreDWG
  const logical = (f: { b: boolean; sat: string }) => (o.numericLogicals && !f.sat.endsWith('_v') ? (f.b ? '1' : '0') : f.sat);
  const field = (f: Field) => ('p' in f ? `$${f.p}` : 'i' in f ? String(f.i) : 'n' in f ? String(f.n) : 'w' in f ? f.w : logical(f));
  const lines = ['700 0 1 0', '@7 unknown @12 ACIS 7.0 NT @24 Fri Nov 27 05:00:00 2026', '1 9.9999999999999995e-007 1e-010'];
  for (const r of records) lines.push(`${r.type} $-1 -1 $-1 ${r.fields.map(field).join(' ')} #`);
  lines.push('End-of-ACIS-data');
  return lines.join('\n');
}

/** SAT text as DXF's groups 1 keep it: every character but the space as 159 − its code, ^ written "^ ". */
export function satDxfLines(sat: string): string[] {
  return sat.split('\n').map((line) => [...line].map((ch) => (ch === ' ' ? ' ' : String.fromCharCode(159 - ch.charCodeAt(0)))).join('').replaceAll('^', '^ '));
}

/** The records as SAB bytes (ACIS 21800, what AutoCAD 2013 on keeps in ACDSDATA). */
export function toSab(records: Rec[]): Uint8Array {
  const out: number[] = [];
  const enc = new TextEncoder();
  const i32 = (v: number) => {
    const d = new DataView(new ArrayBuffer(4));
    d.setInt32(0, v, true);
    out.push(...new Uint8Array(d.buffer));
  };
  const f64 = (v: number) => {
    const d = new DataView(new ArrayBuffer(8));
    d.setFloat64(0, v, true);
    out.push(0x06, ...new Uint8Array(d.buffer));
  };
  const str = (s: string) => out.push(0x07, s.length, ...enc.encode(s));
  const name = (full: string) => {
    const parts = full.split('-');
    parts.forEach((p, k) => out.push(k === parts.length - 1 ? 0x0d : 0x0e, p.length, ...enc.encode(p)));
  };
  out.push(...enc.encode('ACIS BinaryFile'));
  for (const v of [21800, 0, 1, 0]) i32(v);
  str('unknown');
  str('ACIS 218.00 NT');
  str('Fri Nov 27 05:00:00 2026');
  for (const v of [1, 1e-6, 1e-10]) f64(v);
  for (const r of records) {
    name(r.type);
    // the common prefix: attribute, id, one more pointer
    out.push(0x0c);
    i32(-1);
    out.push(0x04);
    i32(-1);
    out.push(0x0c);
    i32(-1);
    for (const f of r.fields) {
      if ('p' in f) {
        out.push(0x0c);
        i32(f.p);
      } else if ('i' in f) {
        out.push(0x04);
        i32(f.i);
      } else if ('n' in f) f64(f.n);
      else if ('w' in f) {
        if (f.w === 'I') out.push(0x0b);
        else str(f.w);
      } else out.push(f.b ? 0x0a : 0x0b);
    }
    out.push(0x11);
  }
  name('End-of-ACIS-data');
  return Uint8Array.from(out);
}

/** A generated DXF with an ACDSDATA section holding SAB bytes for entities by handle, as AutoCAD 2013 on writes it. */
export function withAcdsData(dxf: Uint8Array, entries: [handle: string, sab: Uint8Array][]): Uint8Array {
  const records = entries.flatMap(([handle, sab], k) => {
    const hex = Buffer.from(sab).toString('hex').toUpperCase();
    const chunks: string[] = [];
    for (let i = 0; i < hex.length; i += 254) chunks.push('310', hex.slice(i, i + 254));
    return ['  0', 'ACDSRECORD', ' 90', String(k), '  2', 'AcDbDs::ID', '280', '10', '320', handle, '  2', 'ASM_Data', '280', '15', ' 94', String(sab.length), ...chunks];
  });
  const section = ['  0', 'SECTION', '  2', 'ACDSDATA', ' 70', '2', ' 71', '2', '  0', 'ACDSSCHEMA', ' 90', '0', '  1', 'AcDb3DSolid_ASM_Data', ...records, '  0', 'ENDSEC', ''].join('\r\n');
  const text = new TextDecoder().decode(dxf);
  return new TextEncoder().encode(text.replace(/ {2}0\r\nEOF/, `${section}  0\r\nEOF`));
}
