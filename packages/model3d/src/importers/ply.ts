// PLY (ASCII and binary) through three.js's PLYLoader, after its header's counts are checked against the file's
// length and the triangle limit: a header promising a billion faces is refused before anything is allocated.
import { Mesh } from 'three';
import { PLYLoader } from 'three/addons/loaders/PLYLoader.js';
import { badInput, overLimit } from '../errors.ts';
import type { Model3dLimits } from '../limits.ts';
import { node, type Scene, type TriangleBudget } from '../scene.ts';
import { threeMesh } from './three-mesh.ts';

const SIZES: Record<string, number> = { char: 1, uchar: 1, int8: 1, uint8: 1, short: 2, ushort: 2, int16: 2, uint16: 2, int: 4, uint: 4, int32: 4, uint32: 4, float: 4, float32: 4, double: 8, float64: 8 };

/** the least number of bytes the elements its header declares take (a list: its count and three items) */
function checkHeader(input: Uint8Array, limits: Model3dLimits) {
  const head = new TextDecoder('latin1').decode(input.subarray(0, Math.min(input.length, 64 * 1024)));
  const end = head.search(/end_header\r?\n/);
  if (!head.startsWith('ply') || end < 0) throw badInput('PLY header is missing or unfinished');
  const lines = head.slice(0, end).split(/\r?\n/);
  const format = lines.find((l) => l.startsWith('format '))?.split(/\s+/)[1];
  if (!format || !/^(ascii|binary_little_endian|binary_big_endian)$/.test(format)) throw badInput('PLY format is not ascii or binary');
  const elements: Array<{ name: string; count: number; bytes: number }> = [];
  for (const l of lines) {
    const t = l.trim().split(/\s+/);
    if (t[0] === 'element') elements.push({ name: t[1], count: Number(t[2]), bytes: 0 });
    else if (t[0] === 'property' && elements.length) {
      const e = elements[elements.length - 1];
      // ASCII: at least a digit and a separator per value
      e.bytes += format === 'ascii' ? (t[1] === 'list' ? 8 : 2) : t[1] === 'list' ? (SIZES[t[2]] ?? 1) + 3 * (SIZES[t[3]] ?? 1) : (SIZES[t[1]] ?? 1);
    }
  }
  let need = 0;
  for (const e of elements) {
    if (!Number.isSafeInteger(e.count) || e.count < 0) throw badInput(`PLY element ${e.name} has no valid count`);
    need += e.count * e.bytes;
  }
  const body = input.length - (end + head.slice(end).indexOf('\n') + 1);
  if (need > body) throw badInput(`PLY header states more elements than the file holds (${need} bytes needed, ${body} there)`);
  const faces = elements.find((e) => e.name === 'face')?.count ?? 0;
  if (faces > limits.maxTriangles) throw overLimit('triangles', faces, limits.maxTriangles);
  const vertices = elements.find((e) => e.name === 'vertex')?.count ?? 0;
  if (vertices > limits.maxVertices) throw overLimit('vertices', vertices, limits.maxVertices);
}

export function importPly(input: Uint8Array, name: string, limits: Model3dLimits, budget: TriangleBudget): Scene {
  checkHeader(input, limits);
  const ab = input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength) as ArrayBuffer;
  const geometry = new PLYLoader().parse(ab);
  const meshes = threeMesh(new Mesh(geometry), name, budget);
  if (!meshes.length || !budget.count) throw badInput('PLY holds no faces');
  return { roots: [node(name, { meshes })], upAxis: 'Y' };
}
