import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import { flattenModelSpace } from './flatten.ts';
import { aciToRgb } from './aci.ts';

/**
 * A MULTILEADER's properties come from its MLEADERSTYLE (340) where the entity has none of its own: leader type (170 /
 * style 173), line colour (91 / 91), lineweight (171 / 92), dogleg (291 / 291), arrowhead block (342 / 341), text
 * style (343 / 342), text colour (92 / 93), text frame (292 / 292); sizes are the context's (final, scaled), the
 * style's only where the context has none. Where the entity has its own value it is drawn, whatever its override
 * flags (90) say, as ezdxf 0.18 does (render/mleader.py, IGNORE_OVERRIDE_FLAGS: AutoCAD and BricsCAD draw the values
 * stored in the entity even when the flag is not set; checked with ezdxf on this fixture: its own colour 1, lineweight
 * 13 and dogleg with flags 0). Colours are raw values: 0xC3 << 24 | ACI, 0xC2 << 24 | RGB, 0xC1 << 24 ByBlock,
 * 0xC0 << 24 ByLayer.
 */
const aci = (n: number) => (0xc3000000 | n) | 0;
const rgb = (n: number) => (0xc2000000 | n) | 0;

// the style: leader lines ACI 3 at 0.50 mm, dogleg off, text ACI 5 in style NOTES (handle 3A) 4 high, framed
const style: FixtureEntity = {
  type: 'MLEADERSTYLE',
  pairs: [[5, '4F'], [100, 'AcDbMLeaderStyle'], [170, 2], [173, 1], [91, aci(3)], [92, 50], [290, 1], [42, 2], [291, 0], [43, 8], [44, 2.5], [342, '3A'], [93, aci(5)], [45, 4], [292, 1]],
};

// a leader from (0, 0) to the landing (10, 10), dogleg 8 long to the right, text "NOTE" at (20, 11.5), 3 high in
// the context; `own`: the entity's properties after the context (ACI 1 lines at 0.13 mm, dogleg on, text true-colour
// green in Standard, no frame), or none of them
const mleader = (own: boolean, contextHeight = true): FixtureEntity => ({
  type: 'MULTILEADER',
  pairs: [[8, '0'], [100, 'AcDbMLeader'], [270, 2], [300, 'CONTEXT_DATA{'], [40, 1], [10, 18], [20, 10], [30, 0], ...(contextHeight ? ([[41, 3]] as Pairs) : []), [140, 2], [145, 1], [290, 1], [304, 'NOTE'], [12, 20], [22, 11.5], [32, 0], [13, 1], [23, 0], [33, 0], [42, 0], [43, 0], [171, 1],
    [296, 0], [302, 'LEADER{'], [290, 1], [291, 1], [10, 10], [20, 10], [30, 0], [11, 1], [21, 0], [31, 0], [90, 0], [40, 8], [304, 'LEADER_LINE{'], [10, 0], [20, 0], [30, 0], [91, 0], [305, '}'], [303, '}'], [301, '}'],
    [340, '4F'], [90, 0], ...(own ? ([[170, 1], [91, aci(1)], [171, 13], [290, 1], [291, 1], [41, 8], [42, 2], [172, 2], [343, '11'], [92, rgb(0x00ff00)], [292, 0]] as Pairs) : [])],
});

const draw = (own: boolean, contextHeight = true) =>
  flattenModelSpace(parseDxf(writeAsciiDxf({ version: 'AC1021', styles: [{ name: 'Standard', font: 'txt', handle: '11' }, { name: 'NOTES', font: 'romans.shx', handle: '3A' }], entities: [mleader(own, contextHeight)], objects: [style] })), { tolerance: 0.001 });

describe('MULTILEADER with its MLEADERSTYLE', () => {
  it('draws what the style says where the multileader has no property of its own', () => {
    const f = draw(false);
    const strokes = f.polylines.filter((p) => !p.filled);
    // dogleg off: the leader line only, in ACI 3 at 0.50 mm; the arrowhead too
    expect(strokes.map((p) => p.points)).toEqual([[0, 0, 10, 10]]);
    expect(f.polylines.map((p) => p.color)).toEqual([aciToRgb(3), aciToRgb(3)]);
    expect(strokes[0].lineweight).toBe(50);
    expect(f.texts).toHaveLength(1);
    expect(f.texts[0]).toMatchObject({ color: aciToRgb(5), style: 'NOTES', height: 3, frame: 1 });
    // the style's text height (45) where the context has none
    expect(draw(false, false).texts[0].height).toBe(4);
  });

  it('draws its own properties where it has them (override flags 0, as ezdxf and AutoCAD)', () => {
    const f = draw(true);
    const strokes = f.polylines.filter((p) => !p.filled);
    expect(strokes.map((p) => p.points)).toEqual([[0, 0, 10, 10], [10, 10, 18, 10]]);
    expect(f.polylines.every((p) => p.color === aciToRgb(1))).toBe(true);
    expect(strokes[0].lineweight).toBe(13);
    expect(f.texts[0].color).toBe(0x00ff00);
    expect(f.texts[0].style).toBe('Standard');
    expect(f.texts[0].frame).toBeUndefined();
  });
});
