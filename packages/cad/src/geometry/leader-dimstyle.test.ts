import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import { flattenModelSpace } from './flatten.ts';
import { aciToRgb } from './aci.ts';

/**
 * LEADERs drawn with the dimension style they name (group 3) and its XDATA overrides, as AutoCAD and ezdxf draw them:
 * DIMLDRBLK's arrow block at DIMASZ × DIMSCALE, DIMCLRD for the lines and the arrowhead.
 *
 * Checked against ezdxf 0.18 (render/leader.py) on this fixture: the same arrow lines to 1e-3 (block at the tip,
 * turned along vertex 0 − vertex 1, scaled by the size), sizes 5 and 8, colours 1 and 3, the Standard style's 2.5.
 * Where we differ, by choice: a named AutoCAD arrow without a block of its own (the header's name, R12 styles, an
 * empty `_Oblique` block some writers leave) is drawn from AutoCAD's definition, where ezdxf falls back to the closed
 * filled arrow or draws the empty block; layer-0 ByLayer lines of an arrow block take the leader's layer (AutoCAD's
 * block rule), where ezdxf's virtual entities stay on layer 0; DIMTSZ ticks are for dimensions, not leaders (both).
 */

// a user arrow block at size 1, AutoCAD's way: the tip at the origin, pointing along +x (a "V" of two lines ByBlock,
// so they take DIMCLRD)
const arrowBlock = { name: 'myarrow', record: '3F5', entities: [
  { type: 'LINE', pairs: [[8, '0'], [62, 0], [10, 0], [20, 0], [30, 0], [11, -1], [21, 0.5], [31, 0]] },
  { type: 'LINE', pairs: [[8, '0'], [62, 0], [10, 0], [20, 0], [30, 0], [11, -1], [21, -0.5], [31, 0]] },
] as FixtureEntity[] };

// DIMSCALE 32, DIMASZ 0.15625 (an arrow of 5), DIMLDRBLK → myarrow's record, DIMCLRD 1 (red)
const styles = (ldrblk: string) => [
  { name: 'ARCH', pairs: [[40, 32], [41, 0.15625], [176, 1], [341, ldrblk]] as Pairs },
  { name: 'Standard', pairs: [[41, 2.5]] as Pairs },
];

// a leader from its arrow tip (0, 0) up to (20, 20) then right to (40, 20)
const leader = (style: string, xdata: Pairs = []): FixtureEntity => ({
  type: 'LEADER',
  pairs: [[100, 'AcDbEntity'], [8, '0'], [100, 'AcDbLeader'], [3, style], [71, 1], [72, 0], [73, 3], [76, 3], [10, 0], [20, 0], [30, 0], [10, 20], [20, 20], [30, 0], [10, 40], [20, 20], [30, 0], ...xdata],
});

const draw = (entities: FixtureEntity[], ldrblk = '3F5', header: [string, Pairs][] = []) =>
  flattenModelSpace(parseDxf(writeAsciiDxf({ version: 'AC1015', blocks: [arrowBlock], dimStyles: styles(ldrblk), header: [['$DIMASZ', [[40, 3]]], ...header], entities })), { tolerance: 0.001 });

describe('LEADER with its dimension style', () => {
  it("draws the style's arrow block (DIMLDRBLK) at DIMASZ × DIMSCALE, turned along the first segment, in DIMCLRD", () => {
    const f = draw([leader('ARCH')]);
    const red = aciToRgb(1);
    expect(f.polylines.every((p) => p.color === red)).toBe(true);
    expect(f.polylines.filter((p) => p.filled)).toHaveLength(0);
    const path = f.polylines.find((p) => p.points.length === 6)!;
    expect(path.points).toEqual([0, 0, 20, 20, 40, 20]);
    // the two arrow lines: from the tip back along the leader, 5 long in x of the block (× √(1 + 0.25))
    const arms = f.polylines.filter((p) => p !== path);
    expect(arms).toHaveLength(2);
    const s = Math.SQRT1_2 * 5;
    const ends = arms.map((a) => [a.points[2], a.points[3]]).sort((a, b) => a[0] - b[0]);
    // block (-1, ±0.5) × 5 turned by 225°: (-1, 0.5) → (s + 0.5 s, s - 0.5 s)…
    const expected = [[-1, 0.5], [-1, -0.5]].map(([x, y]) => [(x * -Math.SQRT1_2 - y * -Math.SQRT1_2) * 5, (x * -Math.SQRT1_2 + y * -Math.SQRT1_2) * 5]).sort((a, b) => a[0] - b[0]);
    for (let i = 0; i < 2; i++) {
      expect(arms[i].points[0]).toBeCloseTo(0, 9);
      expect(ends[i][0]).toBeCloseTo(expected[i][0], 9);
      expect(ends[i][1]).toBeCloseTo(expected[i][1], 9);
    }
    expect(Math.hypot(ends[0][0] + ends[1][0], ends[0][1] + ends[1][1]) / 2).toBeCloseTo(s * Math.SQRT2, 9);
  });

  it('applies the XDATA overrides (ACAD DSTYLE) over the style: DIMASZ and DIMCLRD', () => {
    const xdata: Pairs = [[1001, 'ACAD'], [1000, 'DSTYLE'], [1002, '{'], [1070, 41], [1040, 0.25], [1070, 176], [1070, 3], [1002, '}']];
    const f = draw([leader('ARCH', xdata)]);
    expect(f.polylines.every((p) => p.color === aciToRgb(3))).toBe(true);
    const arm = f.polylines.find((p) => p.points.length === 4)!;
    // 0.25 × 32 = 8 along the block's x, √(1 + 0.25) × 8 long
    expect(Math.hypot(arm.points[2] - arm.points[0], arm.points[3] - arm.points[1])).toBeCloseTo(Math.hypot(1, 0.5) * 8, 9);
  });

  it("draws AutoCAD's named arrows the file has no block for, and the closed filled arrow of the named style's size", () => {
    // the Standard style: DIMASZ 2.5 from the record, not the header's 3
    const std = draw([leader('Standard')]);
    const tri = std.polylines.find((p) => p.filled)!;
    const [tx, ty, bx, by, cx, cy] = tri.points;
    expect([tx, ty]).toEqual([0, 0]);
    expect(Math.hypot((bx + cx) / 2, (by + cy) / 2)).toBeCloseTo(2.5, 9);
    // a style without DIMLDRBLK takes the header's, a name ($DIMLDRBLK _Oblique, no such block): one tick across the tip
    const tick = draw([leader('Standard')], '3F5', [['$DIMLDRBLK', [[1, '_Oblique']]]]).polylines.filter((p) => p.points.length === 4);
    expect(tick).toHaveLength(1);
    expect(Math.hypot(tick[0].points[2] - tick[0].points[0], tick[0].points[3] - tick[0].points[1])).toBeCloseTo(2.5 * Math.SQRT2, 9);
    expect((tick[0].points[0] + tick[0].points[2]) / 2).toBeCloseTo(0, 9);
  });

  it("draws a blockless DIMENSION's arrows with its style's DIMBLK at DIMASZ × DIMSCALE (DIMSAH: DIMBLK1 and DIMBLK2)", () => {
    // a horizontal dimension from (0, 0) to (100, 0), its line at y = 20, naming the style ARCH with DIMBLK → myarrow
    const dim: FixtureEntity = { type: 'DIMENSION', pairs: [[100, 'AcDbEntity'], [8, '0'], [100, 'AcDbDimension'], [3, 'ARCH'], [10, 100], [20, 20], [30, 0], [70, 32], [1, ''],
      [100, 'AcDbAlignedDimension'], [13, 0], [23, 0], [33, 0], [14, 100], [24, 0], [34, 0], [50, 0], [100, 'AcDbRotatedDimension']] };
    const arch = (more: Pairs) => [{ name: 'ARCH', pairs: [[40, 32], [41, 0.15625], [342, '3F5'], ...more] as Pairs }];
    const drawDim = (more: Pairs) => flattenModelSpace(parseDxf(writeAsciiDxf({ version: 'AC1015', blocks: [arrowBlock], dimStyles: arch(more), entities: [dim] })), { tolerance: 0.001 });
    const armsAt = (f: ReturnType<typeof drawDim>, x: number) => f.polylines.filter((p) => p.points.length === 4 && Math.hypot(p.points[0] - x, p.points[1] - 20) < 1e-9 && Math.abs(p.points[3] - 20) > 1e-9);
    const f = drawDim([]);
    expect(f.polylines.filter((p) => p.filled)).toHaveLength(0);
    // each end: the block's two lines from the tip, pointing outwards along the dimension line, 5 long in x
    for (const [x, dir] of [[0, -1], [100, 1]]) {
      const arms = armsAt(f, x);
      expect(arms).toHaveLength(2);
      for (const a of arms) expect(a.points[2]).toBeCloseTo(x - dir * 5, 9);
    }
    // DIMSAH 1 with DIMBLK1 → myarrow and no DIMBLK2: the second end is the closed filled arrow
    const sah = drawDim([[173, 1], [343, '3F5']]);
    expect(armsAt(sah, 0)).toHaveLength(2);
    expect(armsAt(sah, 100)).toHaveLength(0);
    expect(sah.polylines.filter((p) => p.filled)).toHaveLength(1);
  });
});
