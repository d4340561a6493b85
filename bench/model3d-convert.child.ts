/**
 * One 3D conversion, or one library call alone, in a process of its own so its peak RSS is that run's
 * (model3d.bench.ts). The clock starts with the file's bytes in memory and includes loading the library's WASM in
 * every mode (the same module, the same cost on both sides). Prints one JSON line: { ms, cpuMs, maxRssMb, ... }.
 *
 *   npx tsx bench/model3d-convert.child.ts occt <file.stp>          occt-import-js ReadStepFile, our importer's options
 *   npx tsx bench/model3d-convert.child.ts web-ifc <file.ifc>       OpenModel + StreamAllMeshes + each geometry's vertices and indices once
 *   npx tsx bench/model3d-convert.child.ts web-ifc-stream <file>    OpenModel + StreamAllMeshes only (nothing read from the meshes)
 *   npx tsx bench/model3d-convert.child.ts web-ifc-props <file>     web-ifc + the lines our importer reads (relations, property sets and
 *                                                                   their values, the elements' own lines) read through web-ifc's GetLines in batches of 10,000
 *                                                                   (our importer reads them with its own reader, importers/step-lines.ts)
 *   npx tsx bench/model3d-convert.child.ts ours <file> <out.glb>    convertToGlb: import, batch, quantize, meshopt, GLB
 *   npx tsx bench/model3d-convert.child.ts plain <in.glb>           the size of the same GLB without quantization and meshopt
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { convertToGlb, gltfIO } from '../packages/model3d/src/index.ts';
import { OCCT_PARAMS } from '../packages/model3d/src/importers/occt.ts';

const require = createRequire(import.meta.url);
/** a GLB's JSON chunk (node names, properties, ranges) and binary chunk (geometry) in bytes */
const chunks = (glb: Uint8Array) => {
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const json = v.getUint32(12, true);
  return { jsonBytes: json, binBytes: glb.byteLength > 20 + json ? v.getUint32(20 + json, true) : 0 };
};
const [mode, file, out] = process.argv.slice(2);
const input = new Uint8Array(readFileSync(file));
const cpu = process.cpuUsage();
const t0 = performance.now();
const result: Record<string, unknown> = {};

if (mode === 'occt') {
  const script = require.resolve('occt-import-js');
  const occt = await (require(script) as (o: object) => Promise<{ ReadStepFile(c: Uint8Array, p: unknown): { success: boolean; meshes: Array<{ index: { array: number[] } }> } }>)({ locateFile: (f: string) => path.join(path.dirname(script), f), print: () => undefined, printErr: () => undefined });
  const r = occt.ReadStepFile(input, OCCT_PARAMS);
  result.success = r.success;
  result.triangles = r.meshes.reduce((n, m) => n + m.index.array.length / 3, 0);
} else if (mode === 'web-ifc' || mode === 'web-ifc-stream' || mode === 'web-ifc-props') {
  const WebIFC = await import('web-ifc');
  const api = new WebIFC.IfcAPI();
  api.SetWasmPath(`${path.dirname(require.resolve('web-ifc'))}/`, true);
  await api.Init(undefined, true);
  const model = api.OpenModel(input, { COORDINATE_TO_ORIGIN: false });
  let triangles = 0;
  const read = new Set<number>();
  api.StreamAllMeshes(model, (flat) => {
    if (mode === 'web-ifc-stream') return;
    for (let i = 0; i < flat.geometries.size(); i++) {
      const g = flat.geometries.get(i);
      if (read.has(g.geometryExpressID)) continue;
      read.add(g.geometryExpressID);
      const geo = api.GetGeometry(model, g.geometryExpressID);
      api.GetVertexArray(geo.GetVertexData(), geo.GetVertexDataSize());
      triangles += api.GetIndexArray(geo.GetIndexData(), geo.GetIndexDataSize()).length / 3;
      geo.delete();
    }
  });
  if (mode === 'web-ifc-props') {
    const ids = (type: number) => {
      const v = api.GetLineIDsWithType(model, type);
      return Array.from({ length: v.size() }, (_, i) => v.get(i));
    };
    const lines = (list: number[]) => {
      const unique = [...new Set(list)];
      const out: Array<Record<string, any>> = [];
      for (let i = 0; i < unique.length; i += 10_000) out.push(...(api.GetLines(model, unique.slice(i, i + 10_000)) as Array<Record<string, any>>));
      return out;
    };
    const refsOf = (v: any): number[] => (Array.isArray(v) ? v.map((x) => x?.value).filter((x) => typeof x === 'number') : []);
    const spatial = [...lines(ids(WebIFC.IFCRELAGGREGATES)), ...lines(ids(WebIFC.IFCRELCONTAINEDINSPATIALSTRUCTURE))];
    const rels = lines(ids(WebIFC.IFCRELDEFINESBYPROPERTIES));
    const defs = lines(rels.map((r) => r.RelatingPropertyDefinition?.value).filter((x) => typeof x === 'number'));
    const props = lines(defs.flatMap((d) => [...refsOf(d.HasProperties), ...refsOf(d.Quantities)]));
    const elements = lines([...ids(WebIFC.IFCPROJECT), ...spatial.flatMap((r) => [...refsOf(r.RelatedObjects), ...refsOf(r.RelatedElements)])]);
    result.lines = spatial.length + rels.length + defs.length + props.length + elements.length;
  }
  api.CloseModel(model);
  result.uniqueGeometryTriangles = triangles;
} else if (mode === 'ours') {
  const r = await convertToGlb(input, path.basename(file));
  writeFileSync(out, r.glb);
  result.triangles = r.stats.triangles;
  result.nodes = r.stats.nodes;
  result.glbBytes = r.glb.length;
  Object.assign(result, chunks(r.glb));
} else if (mode === 'plain') {
  // the converted GLB decoded (meshopt), dequantized and written again: what the GLB would weigh uncompressed
  const { dequantize } = await import('@gltf-transform/functions');
  const io = await gltfIO();
  const doc = await io.readBinary(input);
  await doc.transform(dequantize());
  for (const e of doc.getRoot().listExtensionsUsed()) if (e.extensionName === 'EXT_meshopt_compression' || e.extensionName === 'KHR_mesh_quantization') e.dispose();
  const glb = await io.writeBinary(doc);
  result.plainBytes = glb.length;
  result.plainBinBytes = chunks(glb).binBytes;
  result.primitives = doc.getRoot().listMeshes().reduce((n, m) => n + m.listPrimitives().length, 0);
} else throw new Error(`unknown mode ${mode}`);

const c = process.cpuUsage(cpu);
console.log(JSON.stringify({ mode, ms: Math.round(performance.now() - t0), cpuMs: Math.round((c.user + c.system) / 1000), maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), ...result }));
process.exit(0);
