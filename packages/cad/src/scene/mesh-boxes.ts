/**
 * Each mesh's box in its own frame, [minX, minY, maxX, maxY] per mesh, for meshes given as [first line vertex, line
 * vertex count, first triangle vertex, triangle vertex count, …] over x y position arrays (instanced glyphs and block
 * meshes): picking and bounds test instances against these before looking at their geometry.
 */
export function meshBoxes(meshes: readonly (readonly number[])[], lines: Float32Array, tris: Float32Array): Float64Array {
  const out = new Float64Array(meshes.length * 4);
  meshes.forEach(([lf, lc, tf, tc], m) => {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const add = (p: Float32Array, first: number, count: number) => {
      for (let v = first; v < first + count; v++) {
        const x = p[v * 2], y = p[v * 2 + 1];
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    };
    add(lines, lf, lc);
    add(tris, tf, tc);
    out.set([minX, minY, maxX, maxY], m * 4);
  });
  return out;
}
