import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import { flattenModelSpace } from './flatten.ts';
import { aciToRgb } from './aci.ts';

/**
 * A MULTILEADER's own properties defer to its MLEADERSTYLE (340) unless its override flags (90) say otherwise, as
 * AutoCAD draws it and ezdxf 0.18 reads it (render/mleader.py, MLeaderStyleOverride: a property comes from the entity
 * only when its bit is set): leader type (bit 0; 170 / style 173), line colour (bit 1; 91 / 91), lineweight (bit 3;
 * 171 / 92), dogleg (bit 6; 291 / 291), arrowhead block (bit 8; 342 / 341), text style (bit 11; 343 / 342), text
 * colour (bit 15; 92 / 93), text frame (bit 17; 292 / 292). Colours are raw values: 0xC3 << 24 | ACI, 0xC2 << 24 |
 * RGB, 0xC1 << 24 ByBlock, 0xC0 << 24 ByLayer. The sizes are the context's (final, scaled), the style's only where
 * the context has none.
 */
const aci = (n: number) => (0xc3000000 | n) | 0;
const rgb = (n: number) => (0xc2000000 | n) | 0;

// the style: leader lines ACI 3 at 0.50 mm, dogleg off, text ACI 5 in style NOTES (handle 3A), a frame around the text
const style: FixtureEntity = {
  type: 'MLEADERSTYLE',
  pairs: [[5, '4F'], [100, 'AcDbMLeaderStyle'], [170, 2], [173, 1], [91, aci(3)], [92, 50], [290, 1], [42, 2], [291, 0], [43, 8], [44, 2.5], [342, '3A'], [93, aci(5)], [45, 3], [292, 1]],
};

// a leader from (0, 0) to the landing (10, 10), dogleg 8 long to the right, text "NOTE" at (20, 11.5); its own
// properties say otherwise (ACI 1 lines at 0.13 mm, dogleg on, text true-colour green in Standard, no frame)
const mleader = (flags: number): FixtureEntity => ({
  type: 'MULTILEADER',
  pairs: [[8, '0'], [100, 'AcDbMLeader'], [270, 2], [300, 'CONTEXT_DATA{'], [40, 1], [10, 18], [20, 10], [30, 0], [41, 3], [140, 2], [145, 1], [290, 1], [304, 'NOTE'], [12, 20], [22, 11.5], [32, 0], [13, 1], [23, 0], [33, 0], [42, 0], [43, 0], [171, 1],
    [296, 0], [302, 'LEADER{'], [290, 1], [291, 1], [10, 10], [20, 10], [30, 0], [11, 1], [21, 0], [31, 0], [90, 0], [40, 8], [304, 'LEADER_LINE{'], [10, 0], [20, 0], [30, 0], [91, 0], [305, '}'], [303, '}'], [301, '}'],
    [340, '4F'], [90, flags], [170, 1], [91, aci(1)], [171, 13], [290, 1], [291, 1], [41, 8], [42, 2], [172, 2], [343, '11'], [92, rgb(0x00ff00)], [292, 0]],
});

const draw = (flags: number) =>
  flattenModelSpace(parseDxf(writeAsciiDxf({ version: 'AC1021', styles: [{ name: 'NOTES', font: 'romans.shx', handle: '3A' }], entities: [mleader(flags)], objects: [style] })), { tolerance: 0.001 });

describe('MULTILEADER with its MLEADERSTYLE', () => {
  it('draws what the style says where the multileader does not override it', () => {
    const f = draw(0);
    const strokes = f.polylines.filter((p) => !p.filled);
    // dogleg off: the leader line only, in ACI 3 at 0.50 mm; the arrowhead too
    expect(strokes.map((p) => p.points)).toEqual([[0, 0, 10, 10]]);
    expect(f.polylines.map((p) => p.color)).toEqual([aciToRgb(3), aciToRgb(3)]);
    expect(strokes[0].lineweight).toBe(50);
    expect(f.texts).toHaveLength(1);
    expect(f.texts[0]).toMatchObject({ color: aciToRgb(5), style: 'NOTES', height: 3, frame: 1 });
  });

  it("draws the multileader's own properties where its override flags say so", () => {
    // bits 1 line colour, 3 lineweight, 6 dogleg, 11 text style, 15 text colour, 17 frame
    const f = draw((1 << 1) | (1 << 3) | (1 << 6) | (1 << 11) | (1 << 15) | (1 << 17));
    const strokes = f.polylines.filter((p) => !p.filled);
    expect(strokes.map((p) => p.points)).toEqual([[0, 0, 10, 10], [10, 10, 18, 10]]);
    expect(f.polylines.every((p) => p.color === aciToRgb(1))).toBe(true);
    expect(strokes[0].lineweight).toBe(13);
    expect(f.texts[0].color).toBe(0x00ff00);
    expect(f.texts[0].style).toBe('Standard');
    expect(f.texts[0].frame).toBeUndefined();
  });
});
