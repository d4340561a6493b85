import { describe, expect, it } from 'vitest';
import type { SceneImage } from '@cadcloud/cad/scene';
import { pictureVertices } from './gl-images.ts';

const vertices = (img: SceneImage) => {
  const v = [...pictureVertices(img)].map((x) => Math.round(x * 1e6) / 1e6 + 0);
  const out: number[][] = [];
  for (let i = 0; i < v.length; i += 4) out.push(v.slice(i, i + 4));
  return out;
};

describe('picture vertices', () => {
  it('maps the corners to the texture: insertion bottom-left (0, 1), +u (1, 1), +u+v (1, 0), +v top-left (0, 0)', () => {
    const img: SceneImage = { entity: 0, layer: 0, corners: [0, 0, 4, 0, 4, 2, 0, 2], triangles: [0, 1, 2, 0, 2, 3] };
    expect(vertices(img)).toEqual([[0, 0, 0, 1], [4, 0, 1, 1], [4, 2, 1, 0], [0, 0, 0, 1], [4, 2, 1, 0], [0, 2, 0, 0]]);
  });

  it('follows a turned, unevenly scaled picture and gives a clip ring its place in the picture', () => {
    // rows run up (u = 0,4), columns left (v = -1,0): the picture's top-left is at (9, 10)
    const img: SceneImage = { entity: 0, layer: 0, corners: [10, 10, 10, 14, 9, 14, 9, 10], clip: [10, 10, 10, 12, 9, 10], triangles: [0, 1, 2] };
    expect(vertices(img)).toEqual([[10, 10, 0, 1], [10, 12, 0.5, 1], [9, 10, 0, 0]]);
  });
});
