// OFF (Object File Format: "OFF", vertex and face counts, vertices, faces as a count and indices), read here: a
// header's counts are checked against the file's length and the triangle limit before anything is allocated.
// Faces are fanned into triangles; COFF/NOFF extras (colours, normals) after the coordinates are skipped.
import { badInput, overLimit } from '../errors.ts';
import type { Model3dLimits } from '../limits.ts';
import { node, type Scene, type TriangleBudget } from '../scene.ts';

export function importOff(input: Uint8Array, name: string, limits: Model3dLimits, budget: TriangleBudget): Scene {
  const lines = new TextDecoder().decode(input).split(/\r?\n/).map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
  let at = 0;
  const first = lines[at] ?? '';
  const kw = /^[A-Z]*OFF\b/.exec(first);
  if (!kw) throw badInput('OFF header is missing');
  const rest = first.slice(kw[0].length).trim();
  const counts = (rest || lines[++at] || '').split(/\s+/).map(Number);
  at++;
  const [nv, nf] = counts;
  if (!Number.isSafeInteger(nv) || !Number.isSafeInteger(nf) || nv < 0 || nf < 0) throw badInput('OFF counts are not valid');
  if (lines.length - at < nv + nf) throw badInput(`OFF states ${nv} vertices and ${nf} faces but holds ${lines.length - at} lines`);
  if (nf > limits.maxTriangles) throw overLimit('triangles', nf, limits.maxTriangles);
  if (nv > limits.maxVertices) throw overLimit('vertices', nv, limits.maxVertices);
  const positions = new Float32Array(nv * 3);
  for (let i = 0; i < nv; i++) {
    const t = lines[at + i].split(/\s+/);
    for (let k = 0; k < 3; k++) {
      const v = Number(t[k]);
      if (!Number.isFinite(v)) throw badInput(`OFF vertex ${i} is not three numbers`);
      positions[i * 3 + k] = v;
    }
  }
  at += nv;
  const indices: number[] = [];
  for (let f = 0; f < nf; f++) {
    const t = lines[at + f].split(/\s+/).map(Number);
    const k = t[0];
    if (!Number.isInteger(k) || k < 3 || t.length < k + 1) throw badInput(`OFF face ${f} is not valid`);
    budget.add(k - 2);
    for (let j = 1; j < k - 1; j++) {
      const tri = [t[1], t[1 + j], t[2 + j]];
      if (tri.some((v) => !Number.isInteger(v) || v < 0 || v >= nv)) throw badInput(`OFF face ${f} names a vertex that is not there`);
      indices.push(...tri);
    }
  }
  if (!indices.length) throw badInput('OFF holds no faces');
  return { roots: [node(name, { meshes: [{ name, positions, indices: Uint32Array.from(indices) }] })], upAxis: 'Y' };
}
