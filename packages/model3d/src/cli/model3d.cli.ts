/**
 * `npm run model3d -- convert <in> <out.glb> [--max-triangles N] [--max-input-mb N] [--heap-mb N] [--timeout-s N] [--with FILE]…
 *   [--thumbnail out.png [--thumbnail-size PX]]`:
 * a 3D model as the compressed GLB the viewer loads, converted in a capped worker thread as the server does. Files
 * beside the input that it names (an OBJ's MTL, a glTF's .bin, a DAE's textures) are taken along; `--with` adds
 * others. Prints the statistics and the model tree as JSON; a failed conversion exits 1 with its kind and message.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Model3dError } from '../errors.ts';
import { convertInWorker } from '../worker/run-in-worker.ts';

const usage = 'usage: npm run model3d -- convert <in.step|stp|iges|igs|brep|ifc|3dm|stl|obj|ply|off|gltf|glb|fbx|dae|3ds|3mf|dwg|dxf> <out.glb> [--max-triangles N] [--max-input-mb N] [--heap-mb N] [--timeout-s N] [--with FILE]… [--thumbnail out.png [--thumbnail-size PX]]';
const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    'max-triangles': { type: 'string' },
    'max-input-mb': { type: 'string' },
    'heap-mb': { type: 'string' },
    'timeout-s': { type: 'string' },
    with: { type: 'string', multiple: true },
    thumbnail: { type: 'string' },
    'thumbnail-size': { type: 'string' },
  },
});
const [command, input, out] = positionals;
if (command !== 'convert' || !input || !out) {
  console.error(usage);
  process.exit(2);
}

/** the files beside the input whose names its text mentions (text formats only), and those named by --with */
function siblings(file: string, bytes: Uint8Array): Record<string, Uint8Array> {
  const extra: Record<string, Uint8Array> = {};
  const dir = path.dirname(file);
  if (bytes.length < 64 * 1024 * 1024) {
    const text = Buffer.from(bytes).toString('latin1');
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (p !== path.resolve(file) && name !== path.basename(file) && text.includes(name) && statSync(p).isFile()) extra[name] = readFileSync(p);
    }
  }
  for (const w of values.with ?? []) extra[path.basename(w)] = readFileSync(w);
  return extra;
}

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
try {
  const bytes = readFileSync(input);
  const t = performance.now();
  const r = await convertInWorker(bytes, path.basename(input), {
    extraFiles: siblings(input, bytes),
    limits: {
      ...(values['max-triangles'] ? { maxTriangles: num(values['max-triangles']) } : {}),
      ...(values['max-input-mb'] ? { maxInputBytes: num(values['max-input-mb'])! * 1024 * 1024, maxWasmInputBytes: num(values['max-input-mb'])! * 1024 * 1024 } : {}),
    },
    ...(values['heap-mb'] ? { maxOldGenerationSizeMb: num(values['heap-mb']) } : {}),
    ...(values['timeout-s'] ? { timeoutMs: num(values['timeout-s'])! * 1000 } : {}),
    ...(values.thumbnail ? { thumbnail: num(values['thumbnail-size']) ?? 256 } : {}),
  });
  writeFileSync(out, r.glb);
  if (values.thumbnail && r.thumbnail) writeFileSync(values.thumbnail, r.thumbnail);
  console.log(JSON.stringify({ format: r.format, ms: Math.round(performance.now() - t), inputBytes: bytes.length, glbBytes: r.glb.length, ...r.stats, tree: r.tree }, null, 2));
} catch (e) {
  if (e instanceof Model3dError) {
    console.error(`${e.kind}: ${e.message}`);
    process.exit(1);
  }
  throw e;
}
