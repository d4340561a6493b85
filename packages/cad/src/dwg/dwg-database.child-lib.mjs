// The fallback read of the DWG worker (dwg-to-dxf.child.mjs): LibreDWG's object reader (dwg_read_data + convert)
// instead of its DXF writer, for files on which the DXF writer traps. Runs only in a fresh child: a trap leaves
// the WASM instance unusable. What `convert` leaves out is added back here, so the parent counts every entity.
import { DwgCodePage, Dwg_Error, Dwg_Object_Supertype, Dwg_Object_Type, Dwg_Object_Type_Inverted } from '@mlightcad/libredwg-web';

/** children of other entities (kept in their parent by `convert`) and block brackets: never entities of their own */
const NOT_LISTED = new Set(['BLOCK', 'ENDBLK', 'SEQEND', 'ATTRIB']);
const VERTICES = new Set(['VERTEX_2D', 'VERTEX_3D', 'VERTEX_MESH', 'VERTEX_PFACE', 'VERTEX_PFACE_FACE']);
const POLYLINES = new Set(['POLYLINE2D', 'POLYLINE3D', 'POLYLINE_PFACE', 'POLYLINE_MESH']);
/** the entities whose shape is ACIS data (acis/index.ts ACIS_TYPES, by LibreDWG's type names) */
const MODELER = new Set(['REGION', '3DSOLID', 'BODY', 'PLANESURFACE', 'EXTRUDEDSURFACE', 'LOFTEDSURFACE', 'REVOLVEDSURFACE', 'SWEPTSURFACE', 'NURBSURFACE']);

/** The DwgDatabase of the file (only what the DXF writer uses), or null when LibreDWG cannot read it. */
export function readDatabase(lib, arrayBuffer) {
  const data = openDwg(lib, arrayBuffer);
  if (!data) return null;
  try {
    const db = lib.convert(data);
    // noise behind a valid version string can still "open": a drawing needs its model space
    if (!db.tables?.BLOCK_RECORD?.entries?.some((r) => r.name?.toLowerCase() === '*model_space')) return null;
    // R13–R2004 keep 8-bit strings (R2007 on: UTF-16)
    const version = String.fromCharCode(...new Uint8Array(arrayBuffer, 0, 6));
    addUnconverted(lib, data, db, version < 'AC1021');
    layerColors(lib, data, db);
    const name = DwgCodePage[lib.dwg_get_codepage(data)] ?? '';
    // the parent needs the tables, header, block records and layouts: the rest (dictionaries, xrecords, the
    // thumbnail) would only grow the IPC message
    const database = { header: db.header, tables: db.tables, objects: { LAYOUT: db.objects.LAYOUT } };
    return { database, codePage: name.replace(/^CP_/, '') };
  } finally {
    lib.dwg_free(data);
  }
}

/**
 * `dwg_read_data` as the library does it (the bytes as a file in the WASM file system, then `dwg_read_file`), keeping
 * the error code the library only logs: from CLASSESNOTFOUND on, LibreDWG's own line for a critical error
 * (DWG_ERR_CRITICAL), the file is refused, as LibreDWG's tools do. Lesser codes (a wrong CRC, an unknown class) are usual.
 */
function openDwg(lib, arrayBuffer) {
  const wasm = lib.wasmInstance;
  const file = 'fallback.dwg';
  wasm.FS.writeFile(file, new Uint8Array(arrayBuffer));
  try {
    const { data, error } = wasm.dwg_read_file(file);
    if (!data) return null;
    if (error >= Dwg_Error.CLASSESNOTFOUND) {
      lib.dwg_free(data);
      return null;
    }
    return data;
  } finally {
    if (wasm.FS.analyzePath(file, false).exists) wasm.FS.unlink(file);
  }
}

const hex = (v) => (typeof v === 'bigint' || typeof v === 'number' ? v.toString(16).toUpperCase() : '');

/**
 * One pass over the file's entity objects. Entities `convert` has no converter for (REGION, BODY, polyface and mesh
 * polylines, LIGHT, ARC_DIMENSION …) are dropped by it: each is added to its block record's list with its type,
 * handle and layer (and what else is read here), so the DXF written from the database still holds it and our
 * reader counts it. Converted entities get the fields `convert` reads in their DWG form only (see `extraFields`).
 */
function addUnconverted(lib, data, db, eightBit) {
  const records = new Map(db.tables.BLOCK_RECORD.entries.map((r) => [r.handle, r]));
  const layers = new Map(db.tables.LAYER.entries.map((l) => [l.handle, l.name]));
  const ltypes = new Map(db.tables.LTYPE.entries.map((l) => [l.handle, l.name]));
  const model = db.tables.BLOCK_RECORD.entries.find((r) => r.name.toLowerCase() === '*model_space');
  const converted = new Map();
  for (const r of records.values()) for (const e of r.entities) converted.set(e.handle, e);
  /** polyline handle → its vertex objects, in file order */
  const vertices = new Map();
  const n = lib.dwg_get_num_objects(data);
  for (let i = 0; i < n; i++) {
    const obj = lib.dwg_get_object(data, i);
    if (!obj || lib.dwg_object_get_supertype(obj) !== Dwg_Object_Supertype.DWG_SUPERTYPE_ENTITY) continue;
    const type = (Dwg_Object_Type_Inverted[lib.dwg_object_get_fixedtype(obj)] ?? 'DWG_TYPE_UNKNOWN_ENT').replace(/^DWG_TYPE_/, '');
    if (NOT_LISTED.has(type)) continue;
    const ent = lib.dwg_object_to_entity(obj);
    if (!ent) continue;
    const handle = hex(lib.dwg_object_entity_get_handle_object(ent).value);
    if (VERTICES.has(type)) {
      const owner = hex(lib.dwg_object_entity_get_ownerhandle_object(ent).absolute_ref);
      if (!vertices.has(owner)) vertices.set(owner, []);
      vertices.get(owner).push({ obj, type, handle });
      continue;
    }
    const done = converted.get(handle);
    if (done) {
      Object.assign(done, extraFields(lib, obj, type));
      if (!done.lineType) done.lineType = linetypeOf(lib, obj, ent, ltypes);
      if (type === 'MULTILEADER' && eightBit) done.textContent = narrow(done.textContent);
      continue;
    }
    const owner = records.get(hex(lib.dwg_object_entity_get_ownerhandle_object(ent).absolute_ref)) ?? model;
    if (!owner) continue;
    const layer = layers.get(hex(lib.dwg_object_entity_get_layer_object_ref(ent).handleref.value)) ?? '0';
    const color = lib.dwg_object_entity_get_color_object(ent);
    const e = { type: type === 'MINSERT' ? 'INSERT' : type, handle, layer, colorIndex: color?.index ?? 256, lineType: linetypeOf(lib, obj, ent, ltypes), lineweight: lib.dwg_object_entity_get_line_weight(ent), unconverted: true };
    Object.assign(e, extraFields(lib, obj, type));
    owner.entities.push(e);
    converted.set(handle, e);
  }
  for (const e of converted.values()) if (POLYLINES.has(e.type)) withVertices(lib, e, vertices.get(e.handle) ?? []);
}

/**
 * A polyline's vertices from the vertex objects it owns. `convert` finds them through the R2004+ vertex list only:
 * R13–R2000 polylines (and the polyface and mesh kinds, which it skips) come without them. Where it found them all,
 * its own list stays.
 */
function withVertices(lib, e, owned) {
  if (Array.isArray(e.vertices) && e.vertices.length === owned.length) return;
  e.vertices = owned.map((v) => vertexOf(lib, v));
  const faces = e.vertices.filter((v) => v.flag === 128).length;
  if (e.type === 'POLYLINE_PFACE') Object.assign(e, { numberOfVertices: e.vertices.length - faces, numberOfFaces: faces });
}

/**
 * One vertex, read through LibreDWG's field API. The face records' corner indices (`vertind`, four 16-bit numbers)
 * have no dynapi accessor in this build: they are read from the WASM heap at the field's offset.
 */
function vertexOf(lib, { obj, type, handle }) {
  const tio = lib.dwg_object_to_entity_tio(obj);
  const field = (name, d = 0) => (tio ? (lib.dwg_dynapi_entity_data(tio, name) ?? d) : d);
  if (type === 'VERTEX_PFACE_FACE') {
    const vertex = { handle, x: 0, y: 0, z: 0, flag: 128 };
    const off = tio ? lib.dwg_dynapi_entity_field_offset(tio, 'vertind') : -1;
    const heap = lib.wasmInstance?.HEAP16;
    if (off >= 0 && heap) for (let k = 0; k < 4; k++) vertex[`polyfaceIndex${k}`] = heap[((tio + off) >> 1) + k];
    return vertex;
  }
  const p = field('point', { x: 0, y: 0, z: 0 });
  const vertex = { handle, x: p.x ?? 0, y: p.y ?? 0, z: p.z ?? 0, flag: type === 'VERTEX_PFACE' ? 192 : type === 'VERTEX_MESH' ? 64 : field('flag') };
  if (type === 'VERTEX_2D') Object.assign(vertex, { startWidth: field('start_width'), endWidth: field('end_width'), bulge: field('bulge') });
  return vertex;
}

/**
 * A layer's colour index as the DWG keeps it. LibreDWG's converter takes it from the low byte of the rgb word when
 * the colour method is "by index" (0xC3), which some writers fill with 0xFF while the index itself is set (LibreDWG's
 * own DXF writer uses the index): where the index is a colour (1–255), it wins.
 */
function layerColors(lib, data, db) {
  const byName = new Map(db.tables.LAYER.entries.map((l) => [l.name, l]));
  const n = lib.dwg_get_num_objects(data);
  for (let i = 0; i < n; i++) {
    const obj = lib.dwg_get_object(data, i);
    if (!obj || lib.dwg_object_get_fixedtype(obj) !== Dwg_Object_Type.DWG_TYPE_LAYER) continue;
    const tio = lib.dwg_object_to_object_tio(obj);
    const layer = tio && byName.get(lib.dwg_dynapi_entity_data(tio, 'name'));
    const index = layer ? lib.dwg_dynapi_entity_data(tio, 'color')?.index : undefined;
    if (layer && index >= 1 && index <= 255) layer.colorIndex = index;
  }
}

/**
 * LibreDWG-web hands out the MULTILEADER text of R13–R2004 files read as UTF-16: each character holds two 8-bit ones
 * ("硸停" for "xx\\P"). They are split back, low byte first, up to the first zero.
 */
function narrow(s) {
  if (typeof s !== 'string' || ![...s].some((c) => c.charCodeAt(0) > 0xff)) return s;
  let out = '';
  for (const c of s) {
    const code = c.charCodeAt(0);
    for (const b of [code & 0xff, code >> 8]) {
      if (b === 0) return out;
      out += String.fromCharCode(b);
    }
  }
  return out;
}

/**
 * An entity's linetype. R2000+ files say ByBlock and Continuous with a flag (1, 2) and no linetype handle, which
 * LibreDWG's converter reads as no linetype (ByLayer); 3 (and R13/R14 files) name it by handle, which the converter
 * resolves through the relative handle value: here through the absolute one.
 */
function linetypeOf(lib, obj, ent, ltypes) {
  const tio = lib.dwg_object_to_entity_tio(obj);
  const flags = tio ? lib.dwg_dynapi_common_value(tio, 'ltype_flags') : undefined;
  if (flags?.success && flags.data === 1) return 'ByBlock';
  if (flags?.success && flags.data === 2) return 'Continuous';
  if (flags?.success && flags.data === 0) return '';
  const ref = lib.dwg_object_entity_get_ltype_object_ref(ent);
  return (ref && ltypes.get(hex(ref.absolute_ref))) ?? '';
}

/** Fields read here because `convert` leaves them out or hands them out in their DWG form. */
function extraFields(lib, obj, type) {
  const tio = lib.dwg_object_to_entity_tio(obj);
  if (!tio) return {};
  const field = (name, d) => lib.dwg_dynapi_entity_data(tio, name) ?? d;
  // `convert` gives the R2013 spline flags; DXF's 70 is made of the closed / periodic / rational bits (planar, 8, as
  // LibreDWG's own DXF writer sets it)
  if (type === 'SPLINE') return { dxfFlag: 8 | (field('closed_b') ? 1 : 0) | (field('periodic') ? 2 : 0) | (field('rational') ? 4 : 0) };
  // an arc-length or large radial dimension draws through its anonymous block, like any dimension
  if (type === 'ARC_DIMENSION' || type === 'LARGE_RADIAL_DIMENSION') return { name: lib.dwg_entity_get_block_name(tio, 'block') ?? '' };
  if (type === 'POLYLINE_PFACE' || type === 'POLYLINE_MESH') return meshOf(lib, obj, type);
  // TRACE is skipped by `convert`: its four corners (Z order, like SOLID's), elevation and extrusion
  if (type === 'TRACE') {
    const z = field('elevation') ?? 0;
    const corner = (name) => ({ ...(field(name) ?? { x: 0, y: 0 }), z });
    return { corner1: corner('corner1'), corner2: corner('corner2'), corner3: corner('corner3'), corner4: corner('corner4'), extrusionDirection: field('extrusion') };
  }
  // MESH (subdivision mesh) is skipped by `convert`: its vertices and its face list (size, then the vertex indices)
  if (type === 'MESH') {
    const nv = field('num_vertex', 0), nf = field('num_faces', 0);
    const vp = field('vertex', 0), fp = field('faces', 0);
    return { level: field('dlevel', 0), vertices: vp && nv ? lib.dwg_ptr_to_point3d_array(vp, nv) : [], faces: fp && nf ? lib.dwg_ptr_to_uint32_t_array(fp, nf) : [] };
  }
  // MINSERT (an INSERT with rows and columns) is skipped by `convert`: read as its INSERT mapper expects it
  if (type === 'MINSERT') return minsertOf(lib, field);
  // `convert` takes a leader's arrowhead from its arrowhead type, 0 in most files: DXF's 71 is the on/off flag
  if (type === 'LEADER') return { isArrowheadEnabled: Boolean(field('arrowhead_on')) };
  if (type === 'TABLE') return tablePlacement(lib, obj, field);
  // REGION / 3DSOLID / BODY and the surfaces (which LibreDWG keeps with the same ACIS fields): `convert` hands out a
  // WASM pointer to the ACIS data; version 1 is SAT text (R13–R2004 files), version 2 binary SAB (`sab_size` bytes,
  // R2004–R2010 files): both drawn by our flattener as a wireframe
  if (MODELER.has(type)) {
    const ptr = field('acis_data');
    if (ptr && field('version') === 1) {
      const sat = lib.wasmInstance?.UTF8ToString?.(ptr);
      if (typeof sat === 'string' && sat) return { satText: sat };
    }
    const size = field('sab_size', 0);
    const heap = lib.wasmInstance?.HEAPU8;
    if (ptr && field('version') === 2 && heap && size > 0 && size < 256 * 1024 * 1024 && ptr + size <= heap.length) return { sabHex: Buffer.from(heap.subarray(ptr, ptr + size)).toString('hex') };
  }
  return {};
}

function minsertOf(lib, field) {
  const ref = field('block_header', null);
  const header = ref ? lib.dwg_ref_get_object(ref) : 0;
  const tio = header ? lib.dwg_object_to_object_tio(header) : 0;
  const scale = field('scale', { x: 1, y: 1, z: 1 });
  return {
    name: (tio && lib.dwg_entity_block_header_get_block(tio)?.name) || '',
    insertionPoint: field('ins_pt', { x: 0, y: 0, z: 0 }),
    xScale: scale.x,
    yScale: scale.y,
    zScale: scale.z,
    rotation: field('rotation'),
    columnCount: field('num_cols'),
    rowCount: field('num_rows'),
    columnSpacing: field('col_spacing'),
    rowSpacing: field('row_spacing'),
    extrusionDirection: field('extrusion', { x: 0, y: 0, z: 1 }),
  };
}

/** a polyface's or mesh's own fields (its vertices come from withVertices) */
function meshOf(lib, obj, type) {
  const tio = lib.dwg_object_to_entity_tio(obj);
  return {
    flag: type === 'POLYLINE_MESH' ? 16 : 64,
    meshMVertexCount: lib.dwg_dynapi_entity_data(tio, 'num_m_verts') ?? 0,
    meshNVertexCount: lib.dwg_dynapi_entity_data(tio, 'num_n_verts') ?? 0,
  };
}

/**
 * Where an R2010+ table stands. LibreDWG 0.13 reads such a table without its fields (insertion point 0, no direction),
 * but the entity's own graphics (the proxy graphics AutoCAD saves with it, world coordinates) open with the table's
 * transform: a record of type 29 holding a 4×4 matrix, row-major, whose last column is the insertion point and first
 * column the table's direction (seen in dwg_2010/2018_acadsharp_sample, where the R2000 copy and the DXF twin give
 * that same point as 10/20). Only a rigid transform (no scale, no shear) is taken.
 */
function tablePlacement(lib, obj, field) {
  const ins = field('ins_pt');
  if (ins && (ins.x !== 0 || ins.y !== 0 || ins.z !== 0)) return {};
  const g = lib.dwg_entity_get_preview(obj);
  if (!g || g.length < 8 + 8 + 128) return {};
  const v = new DataView(g.buffer, g.byteOffset, g.byteLength);
  const size = v.getInt32(8, true), type = v.getInt32(12, true);
  if (type !== 29 || size !== 8 + 128) return {};
  const m = Array.from({ length: 16 }, (_, i) => v.getFloat64(16 + i * 8, true));
  if (!m.every(Number.isFinite) || m[12] !== 0 || m[13] !== 0 || m[14] !== 0 || m[15] !== 1) return {};
  const [ax, ay, az] = [m[0], m[4], m[8]], [bx, by, bz] = [m[1], m[5], m[9]];
  const rigid = Math.abs(Math.hypot(ax, ay, az) - 1) < 1e-9 && Math.abs(Math.hypot(bx, by, bz) - 1) < 1e-9 && Math.abs(ax * bx + ay * by + az * bz) < 1e-9;
  if (!rigid) return {};
  return { placement: { insertionPoint: { x: m[3], y: m[7], z: m[11] }, direction: { x: ax, y: ay, z: az } } };
}
