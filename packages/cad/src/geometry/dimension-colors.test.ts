import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import { flattenModelSpace } from './flatten.ts';
import { aciToRgb } from './aci.ts';

/**
 * DIMENSIONs we draw ourselves (saved without a block) in their dimension colours, as AutoCAD generates their block:
 * DIMCLRD (176) the dimension line and the arrowheads, DIMCLRE (177) the extension lines, DIMCLRT (178) the text;
 * from the DIMSTYLE the dimension names (3), over it the dimension's own overrides (XDATA ACAD DSTYLE), under it the
 * header ($DIMCLRD …). 0 is ByBlock (the dimension's own colour), 256 ByLayer. ezdxf draws the same colours from a
 * dimension's block (its `render()` writes them there); it draws no blockless dimension, so the check is ours.
 */

// a horizontal dimension from (0, 0) to (100, 0), its line at y = 20, on layer DIMS (ACI 6), its own colour 2 (yellow)
const dim = (style: string, xdata: Pairs = []): FixtureEntity => ({
  type: 'DIMENSION',
  pairs: [[100, 'AcDbEntity'], [8, 'DIMS'], [62, 2], [100, 'AcDbDimension'], [3, style], [10, 100], [20, 20], [30, 0], [70, 32], [1, ''],
    [100, 'AcDbAlignedDimension'], [13, 0], [23, 0], [33, 0], [14, 100], [24, 0], [34, 0], [50, 0], [100, 'AcDbRotatedDimension'], ...xdata],
});

const draw = (entities: FixtureEntity[], styleVars: Pairs, header: [string, Pairs][] = []) =>
  flattenModelSpace(
    parseDxf(writeAsciiDxf({ version: 'AC1015', layers: ['0', 'DIMS'], layerColors: { DIMS: 6 }, dimStyles: [{ name: 'COLOURED', pairs: [[41, 2.5], [140, 2.5], ...styleVars] }], header, entities })),
    { tolerance: 0.001 },
  );

/** the drawn parts by what they are: extension lines (vertical), the dimension line (y = 20), arrowheads (filled) and the text */
function parts(f: ReturnType<typeof draw>) {
  const strokes = f.polylines.filter((p) => !p.filled);
  return {
    extension: strokes.filter((p) => Math.abs(p.points[0] - p.points[2]) < 1e-9 && Math.abs(p.points[1] - p.points[3]) > 1e-9).map((p) => p.color),
    line: strokes.filter((p) => Math.abs(p.points[1] - 20) < 1e-9 && Math.abs(p.points[3] - 20) < 1e-9).map((p) => p.color),
    arrows: f.polylines.filter((p) => p.filled).map((p) => p.color),
    text: f.texts.map((t) => t.color),
  };
}

describe('blockless DIMENSION colours', () => {
  it("draws DIMCLRD, DIMCLRE and DIMCLRT from the dimension's style", () => {
    const p = parts(draw([dim('COLOURED')], [[176, 1], [177, 3], [178, 5]]));
    expect(p.extension).toEqual([aciToRgb(3), aciToRgb(3)]);
    expect(p.line).toEqual([aciToRgb(1)]);
    expect(p.arrows).toEqual([aciToRgb(1), aciToRgb(1)]);
    expect(p.text).toEqual([aciToRgb(5)]);
  });

  it("takes the dimension's own overrides (XDATA ACAD DSTYLE) over its style", () => {
    const xdata: Pairs = [[1001, 'ACAD'], [1000, 'DSTYLE'], [1002, '{'], [1070, 176], [1070, 4], [1070, 177], [1070, 30], [1070, 178], [1070, 256], [1002, '}']];
    const p = parts(draw([dim('COLOURED', xdata)], [[176, 1], [177, 3], [178, 5]]));
    expect(p.line).toEqual([aciToRgb(4)]);
    expect(p.arrows).toEqual([aciToRgb(4), aciToRgb(4)]);
    expect(p.extension).toEqual([aciToRgb(30), aciToRgb(30)]);
    // 256 ByLayer: the dimension's layer
    expect(p.text).toEqual([aciToRgb(6)]);
  });

  it("draws ByBlock (0, AutoCAD's default) in the dimension's own colour, and takes the header's variables when the style has none", () => {
    const byBlock = parts(draw([dim('COLOURED')], []));
    expect([...byBlock.extension, ...byBlock.line, ...byBlock.arrows, ...byBlock.text].every((c) => c === aciToRgb(2))).toBe(true);
    const fromHeader = parts(draw([dim('COLOURED')], [], [['$DIMCLRD', [[70, 1]]], ['$DIMCLRE', [[70, 3]]], ['$DIMCLRT', [[70, 5]]]]));
    expect(fromHeader.line).toEqual([aciToRgb(1)]);
    expect(fromHeader.extension).toEqual([aciToRgb(3), aciToRgb(3)]);
    expect(fromHeader.text).toEqual([aciToRgb(5)]);
  });
});
