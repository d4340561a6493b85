/**
 * Hostile drawings generated in code: a few hundred bytes (or a few kB) whose numbers ask for unbounded work or
 * output (nested arrays, huge degrees, dense hatch patterns, huge coordinates). The engine's content bounds
 * (geometry/content-budget.ts) must end each quickly with a bounded scene or a clear error.
 */
import { writeAsciiDxf, type FixtureEntity, type Pairs } from './dxf-writer.ts';

const line = (x0: number, y0: number, x1: number, y1: number): FixtureEntity => ({ type: 'LINE', pairs: [[8, '0'], [10, x0], [20, y0], [11, x1], [21, y1]] });
const circle = (x: number, y: number, r: number): FixtureEntity => ({ type: 'CIRCLE', pairs: [[8, '0'], [10, x], [20, y], [40, r]] });
const insert = (name: string, o: { cols?: number; rows?: number; dc?: number; dr?: number; x?: number; y?: number } = {}): FixtureEntity => ({
  type: 'INSERT',
  pairs: [[8, '0'], [2, name], [10, o.x ?? 0], [20, o.y ?? 0], [70, o.cols ?? 1], [71, o.rows ?? 1], [44, o.dc ?? 10], [45, o.dr ?? 10]],
});

/** Blocks nested `depth` deep, each an array of the one below: rows × cols to the power depth entities asked for. */
export function nestedArrays(depth = 6, side = 10, at = 0): Uint8Array {
  const blocks = [{ name: 'B0', entities: [line(0, 0, 1, 1), circle(0, 0, 1)] }];
  for (let k = 1; k <= depth; k++) blocks.push({ name: `B${k}`, entities: [insert(`B${k - 1}`, { cols: side, rows: side, dc: 2 * side ** (k - 1), dr: 2 * side ** (k - 1) })] });
  // `at` moves the array: other bytes (another md5) for the same work
  return writeAsciiDxf({ blocks, entities: [insert(`B${depth}`, { cols: 1_000_000, rows: 1_000_000, dc: 1e300, dr: 1e300, x: at })] });
}

/** Blocks that each insert the next one many times (no arrays): a fan-out tree. */
export function fanOut(depth = 8, fan = 12): Uint8Array {
  const blocks = [{ name: 'F0', entities: [line(0, 0, 1, 0), circle(0, 0, 1)] }];
  for (let k = 1; k <= depth; k++) blocks.push({ name: `F${k}`, entities: Array.from({ length: fan }, (_, i) => insert(`F${k - 1}`, { x: i * 3 ** k })) });
  return writeAsciiDxf({ blocks, entities: [insert(`F${depth}`)] });
}

/**
 * SPLINEs of `points` zig-zag control points: with `degree` points − 1 de Boor costs degree² per point; with degree 3
 * and many points every span is refined to its limit and (before the bound) each point searched its span linearly.
 */
export function hostileSplines(points = 3000, degree = points - 1, copies = 1): Uint8Array {
  const splines: FixtureEntity[] = [];
  for (let c = 0; c < copies; c++) {
    const pairs: Pairs = [[8, '0'], [100, 'AcDbSpline'], [70, 8], [71, degree], [72, points + degree + 1], [73, points], [74, 0]];
    for (let i = 0; i < points + degree + 1; i++) pairs.push([40, i <= degree ? 0 : i >= points ? points - degree : i - degree]);
    for (let i = 0; i < points; i++) pairs.push([10, i], [20, (i % 2 ? 1e6 : -1e6) + c], [30, 0]);
    splines.push({ type: 'SPLINE', pairs });
  }
  return writeAsciiDxf({ entities: splines });
}

/** A pattern HATCH with a zig-zag boundary and lines 1e-6 apart: crossings = edges × lines. */
export function denseHatch(zigzags = 2000, spacing = 1e-4): Uint8Array {
  const pairs: Pairs = [[8, '0'], [100, 'AcDbHatch'], [10, 0], [20, 0], [30, 0], [2, 'HOSTILE'], [70, 0], [71, 0], [91, 1], [92, 2], [72, 0], [73, 1], [93, zigzags * 2]];
  for (let i = 0; i < zigzags; i++) pairs.push([10, i], [20, 0], [10, i + 0.5], [20, 10]);
  pairs.push([97, 0], [75, 0], [76, 1], [52, 0], [41, 1], [77, 0], [78, 1], [53, 0], [43, 0], [44, 0], [45, 0], [46, spacing], [79, 0], [98, 0]);
  return writeAsciiDxf({ entities: [{ type: 'HATCH', pairs }] });
}

/** Huge numbers everywhere: coordinates 1e300, radius 1e200, text heights 1e300, a dashed line 1e300 long. */
export function hugeNumbers(copies = 200): Uint8Array {
  const entities: FixtureEntity[] = [];
  for (let i = 0; i < copies; i++) {
    entities.push(line(-1e300, -1e300, 1e300, 1e300));
    entities.push(circle(i, i, 1e200));
    entities.push({ type: 'ARC', pairs: [[8, '0'], [10, 1e300], [20, -1e300], [40, 1e-300], [50, 0], [51, 359.999]] });
    entities.push({ type: 'ELLIPSE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 1e250], [21, 1e-250], [40, 1e-200], [41, 0], [42, 1e10]] });
    entities.push({ type: 'TEXT', pairs: [[8, '0'], [10, i], [20, i], [40, 1e300], [1, 'HUGE TEXT 1e300']] });
    entities.push({ type: 'MTEXT', pairs: [[8, '0'], [10, i], [20, i], [40, 1e-300], [41, 1e-300], [1, 'wrap every character here '.repeat(20)]] });
    entities.push({ type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 3], [70, 1], [10, 0], [20, 0], [42, 1e300], [10, 1e-300], [20, 0], [42, -1e-300], [10, 1e300], [20, 1]] });
  }
  return writeAsciiDxf({ header: [['$EXTMIN', [[10, -1e14], [20, -1e14], [30, 0]]], ['$EXTMAX', [[10, 1e14], [20, 1e14], [30, 0]]]], entities });
}

/** A linetype of many tiny dashes on long lines and circles. */
export function tinyDashes(copies = 400): Uint8Array {
  const pattern = Array.from({ length: 1000 }, (_, i) => (i % 2 ? -1e-3 : 1e-3));
  const entities: FixtureEntity[] = [];
  for (let i = 0; i < copies; i++) {
    entities.push({ type: 'LINE', pairs: [[8, '0'], [6, 'TINY'], [10, 0], [20, i], [11, 19], [21, i]] });
    entities.push({ type: 'CIRCLE', pairs: [[8, '0'], [6, 'TINY'], [10, 0], [20, i], [40, 3]] });
  }
  return writeAsciiDxf({ linetypes: [{ name: 'TINY', pattern }], entities });
}

/** A paper layout of `viewports` viewports, each showing the whole model: the model's geometry is moved once per viewport. */
export function manyViewports(viewports = 400, circles = 3000): Uint8Array {
  const entities: FixtureEntity[] = [];
  for (let i = 0; i < circles; i++) entities.push(circle(i % 100, Math.floor(i / 100), 0.4), line(i % 100, 0, i % 100, 30));
  for (let v = 0; v < viewports; v++) entities.push({ type: 'VIEWPORT', pairs: [[67, 1], [8, '0'], [10, 100 + (v % 20) * 10], [20, 100 + Math.floor(v / 20) * 10], [40, 1000], [41, 1000], [68, 1], [69, 2 + v], [12, 50], [22, 15], [45, 40]] });
  return writeAsciiDxf({ entities });
}

/**
 * A block holding one dense pattern hatch (a zig-zag boundary under lines `spacing` apart), inserted as a 100 × 100
 * array: at 2e-4 each hatch needs 20 M crossings, at 1.1e-3 3.6 M (under the per-hatch bound, over the segment cap).
 */
export function hatchArray(spacing = 2e-4): Uint8Array {
  const pairs: Pairs = [[8, '0'], [100, 'AcDbHatch'], [10, 0], [20, 0], [30, 0], [2, 'HOSTILE'], [70, 0], [71, 0], [91, 1], [92, 2], [72, 0], [73, 1], [93, 400]];
  for (let i = 0; i < 200; i++) pairs.push([10, i], [20, 0], [10, i + 0.5], [20, 10]);
  pairs.push([97, 0], [75, 0], [76, 1], [52, 0], [41, 1], [77, 0], [78, 1], [53, 0], [43, 0], [44, 0], [45, 0], [46, spacing], [79, 0], [98, 0]);
  return writeAsciiDxf({ blocks: [{ name: 'H', entities: [{ type: 'HATCH', pairs }] }], entities: [insert('H', { cols: 100, rows: 100, dc: 300, dr: 20 })] });
}
