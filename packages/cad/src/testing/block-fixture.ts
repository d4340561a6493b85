import { writeAsciiDxf, type FixtureEntity, type Pairs } from './dxf-writer.ts';

/**
 * A drawing for block instancing tests: block SYM (base point 10,5; ByBlock colour, linetype and lineweight
 * children, layer-0 children, a child on its own layer B, a dashed line, a circle, an arc, a bulge, a SOLID, a wide
 * polyline, a TEXT and a nested INSERT of INNER) inserted `count` times with rotation, mirroring, non-uniform
 * scale, ByBlock colours and linetypes on two layers; a MINSERT array of 5 × 4; INSERTs that must stay baked (a
 * tilted extrusion, an extension dictionary that may hold a clip); one mirrored by extrusion (0,0,-1); two with
 * different attribute values; one on a layer that is off. Handles: SYM inserts 1000 + i, the others from 'A0'.
 */
export function blockFixtureDxf(count = 1000): Uint8Array {
  const e = (type: string, pairs: Pairs): FixtureEntity => ({ type, pairs });
  const sym: FixtureEntity[] = [
    e('LINE', [[8, '0'], [62, 0], [370, -2], [10, 0], [20, 0], [11, 20], [21, 0]]),
    e('LINE', [[8, '0'], [6, 'BYBLOCK'], [10, 0], [20, 10], [11, 20], [21, 10]]),
    e('LINE', [[8, '0'], [6, 'DASHED'], [10, 0], [20, 12], [11, 20], [21, 14]]),
    e('CIRCLE', [[8, '0'], [10, 10], [20, 5], [40, 4]]),
    e('ARC', [[8, 'B'], [62, 3], [10, 15], [20, 15], [40, 3], [50, 0], [51, 120]]),
    e('LWPOLYLINE', [[8, '0'], [62, 5], [90, 3], [70, 0], [10, 0], [20, 20], [42, 0.5], [10, 10], [20, 20], [10, 20], [20, 22]]),
    e('SOLID', [[8, '0'], [62, 0], [10, 22], [20, 0], [11, 26], [21, 0], [12, 22], [22, 4], [13, 26], [23, 4]]),
    e('LWPOLYLINE', [[8, '0'], [90, 2], [70, 0], [43, 1], [10, 0], [20, -4], [10, 20], [20, -4]]),
    e('TEXT', [[8, '0'], [62, 0], [10, 0], [20, 25], [40, 2], [1, 'S']]),
    e('INSERT', [[8, '0'], [62, 0], [2, 'INNER'], [10, 30], [20, 0], [50, 30]]),
  ];
  const inner: FixtureEntity[] = [
    e('LWPOLYLINE', [[8, '0'], [62, 0], [90, 4], [70, 1], [10, 0], [20, 0], [10, 4], [20, 0], [10, 4], [20, 4], [10, 0], [20, 4]]),
    e('POINT', [[8, '0'], [10, 2], [20, 2]]),
  ];
  const scales: [number, number][] = [[1, 1], [-1, 1], [2, 0.5], [1.5, -1.5]];
  const entities: FixtureEntity[] = [];
  for (let i = 0; i < count; i++) {
    const [sx, sy] = scales[i % 4];
    const pairs: Pairs = [[5, (0x1000 + i).toString(16).toUpperCase()], [8, i % 2 ? 'L2' : 'L1'], [2, 'SYM'], [10, (i % 40) * 60], [20, Math.floor(i / 40) * 60], [41, sx], [42, sy], [50, (i * 37) % 360]];
    if (i % 3 === 0) pairs.push([62, 1]);
    else if (i % 3 === 1) pairs.push([62, 5]);
    if (i % 5 === 0) pairs.push([6, 'DASHED']);
    if (i % 7 === 0) pairs.push([370, 35]);
    entities.push(e('INSERT', pairs));
  }
  let h = 0xa0;
  const handle = (): [number, string] => [5, (h++).toString(16).toUpperCase()];
  entities.push(
    // a MINSERT: 5 columns × 4 rows, rotated
    e('INSERT', [handle(), [8, 'L1'], [2, 'SYM'], [10, 0], [20, -400], [50, 15], [70, 5], [71, 4], [44, 40], [45, 40]]),
    // on a layer that is off: not drawn
    e('INSERT', [handle(), [8, 'OFF'], [2, 'SYM'], [10, 0], [20, -600]]),
    // seen from below (extrusion 0,0,-1): a mirror, still a 2D affine of the block
    e('INSERT', [handle(), [8, 'L1'], [2, 'SYM'], [10, -300], [20, 0], [210, 0], [220, 0], [230, -1]]),
    // a tilted extrusion: not a rotation/mirror of the block in plan, baked
    e('INSERT', [handle(), [8, 'L1'], [2, 'SYM'], [10, -300], [20, 100], [210, 0.6], [220, 0], [230, 0.8]]),
    // an extension dictionary (where a clip boundary lives): baked
    e('INSERT', [handle(), [8, 'L2'], [102, '{ACAD_XDICTIONARY'], [360, 'FFF0'], [102, '}'], [2, 'SYM'], [10, -300], [20, 200]]),
    // attributes with different values: the block is instanced, the attributes are text where they stand
    e('INSERT', [handle(), [8, 'L1'], [66, 1], [2, 'SYM'], [10, -300], [20, 300]]),
    e('ATTRIB', [handle(), [8, 'L1'], [10, -300], [20, 290], [40, 3], [1, 'A1'], [2, 'TAG'], [70, 0]]),
    e('SEQEND', [handle(), [8, 'L1']]),
    e('INSERT', [handle(), [8, 'L1'], [66, 1], [2, 'SYM'], [10, -300], [20, 400]]),
    e('ATTRIB', [handle(), [8, 'L1'], [10, -300], [20, 390], [40, 3], [1, 'A2'], [2, 'TAG'], [70, 0]]),
    e('SEQEND', [handle(), [8, 'L1']]),
    e('LINE', [handle(), [8, 'L1'], [10, -400], [20, -400], [11, 2400], [21, -400]]),
    e('LINE', [handle(), [8, 'B'], [10, -400], [20, -450], [11, 2400], [21, -450]]),
  );
  return writeAsciiDxf({
    layers: ['0', 'L1', 'L2', 'B', 'OFF'],
    layerColors: { L1: 1, L2: 3, B: 4, OFF: -2 },
    layerLinetypes: { L2: 'DASHED' },
    linetypes: [{ name: 'DASHED', pattern: [5, -2.5] }],
    blocks: [
      { name: 'INNER', entities: inner },
      { name: 'SYM', entities: sym, base: [10, 5] },
    ],
    entities,
  });
}
