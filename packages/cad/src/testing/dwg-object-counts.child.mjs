// Test helper, run as its own process: counts a DWG's entities by type straight from LibreDWG's object map
// (dwg_read_data, no DXF), the independent count the DWG corpus test compares our model with. Its own
// process because LibreDWG can trap on a file and leave its WASM instance unusable.
import { readFileSync } from 'node:fs';
import { LibreDwg, Dwg_File_Type, Dwg_Object_Type } from '@mlightcad/libredwg-web';

const lib = await LibreDwg.create();
const NAMES = {
  TEXT: ['DWG_TYPE_TEXT'], ATTRIB: ['DWG_TYPE_ATTRIB'], ATTDEF: ['DWG_TYPE_ATTDEF'], INSERT: ['DWG_TYPE_INSERT', 'DWG_TYPE_MINSERT'],
  VERTEX: ['DWG_TYPE_VERTEX_2D', 'DWG_TYPE_VERTEX_3D', 'DWG_TYPE_VERTEX_MESH', 'DWG_TYPE_VERTEX_PFACE', 'DWG_TYPE_VERTEX_PFACE_FACE'],
  POLYLINE: ['DWG_TYPE_POLYLINE_2D', 'DWG_TYPE_POLYLINE_3D', 'DWG_TYPE_POLYLINE_PFACE', 'DWG_TYPE_POLYLINE_MESH'],
  ARC: ['DWG_TYPE_ARC'], CIRCLE: ['DWG_TYPE_CIRCLE'], LINE: ['DWG_TYPE_LINE'],
  DIMENSION: ['DWG_TYPE_DIMENSION_ORDINATE', 'DWG_TYPE_DIMENSION_LINEAR', 'DWG_TYPE_DIMENSION_ALIGNED', 'DWG_TYPE_DIMENSION_ANG3PT', 'DWG_TYPE_DIMENSION_ANG2LN', 'DWG_TYPE_DIMENSION_RADIUS', 'DWG_TYPE_DIMENSION_DIAMETER'],
  POINT: ['DWG_TYPE_POINT'], '3DFACE': ['DWG_TYPE_3DFACE'], SOLID: ['DWG_TYPE_SOLID'], TRACE: ['DWG_TYPE_TRACE'], VIEWPORT: ['DWG_TYPE_VIEWPORT'],
  ELLIPSE: ['DWG_TYPE_ELLIPSE'], SPLINE: ['DWG_TYPE_SPLINE'], REGION: ['DWG_TYPE_REGION'], '3DSOLID': ['DWG_TYPE_3DSOLID'], RAY: ['DWG_TYPE_RAY'],
  XLINE: ['DWG_TYPE_XLINE'], MTEXT: ['DWG_TYPE_MTEXT'], LEADER: ['DWG_TYPE_LEADER'], MLINE: ['DWG_TYPE_MLINE'], LWPOLYLINE: ['DWG_TYPE_LWPOLYLINE'],
  HATCH: ['DWG_TYPE_HATCH'], MULTILEADER: ['DWG_TYPE_MULTILEADER'], IMAGE: ['DWG_TYPE_IMAGE'], WIPEOUT: ['DWG_TYPE_WIPEOUT'], ACAD_TABLE: ['DWG_TYPE_TABLE'],
};
const file = process.argv[2];
const buf = readFileSync(file);
const data = lib.dwg_read_data(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), Dwg_File_Type.DWG);
if (data === undefined) {
  console.log(JSON.stringify({ error: 'unreadable' }));
  process.exit(0);
}
const counts = {};
for (const [name, types] of Object.entries(NAMES)) {
  let n = 0;
  for (const t of types) n += lib.dwg_getall_entity_by_type(data, Dwg_Object_Type[t]).length;
  if (n) counts[name] = n;
}
console.log(JSON.stringify({ counts }));
