import { writeAsciiDxf, type FixtureEntity } from './dxf-writer.ts';

const line = (x1: number, y1: number, x2: number, y2: number): FixtureEntity => ({ type: 'LINE', pairs: [[8, '0'], [62, 7], [10, x1], [20, y1], [30, 0], [11, x2], [21, y2], [31, 0]] });
const point = (x: number, y: number): FixtureEntity => ({ type: 'POINT', pairs: [[8, '0'], [10, x], [20, y], [30, 0]] });

/**
 * A drawing whose extents lie: its content is a 200 × 100 frame with a grid and diagonals (0,0 – 200,100), a legend
 * a little apart (230–260), and a few stray items far away (points at 1e6 and −5e5, a short line at 3e5), with header
 * extents that cover the strays, and an XLINE through the content. Thumbnails and the viewer's first view must show
 * the frame and the legend, not a few dots (issue 15 item 12).
 */
export function outlierDrawingDxf(): Uint8Array {
  const entities: FixtureEntity[] = [line(0, 0, 200, 0), line(200, 0, 200, 100), line(200, 100, 0, 100), line(0, 100, 0, 0), line(0, 0, 200, 100), line(0, 100, 200, 0)];
  for (let i = 1; i < 10; i++) entities.push(line(i * 20, 0, i * 20, 100));
  for (let i = 0; i < 4; i++) entities.push(line(230, 10 + i * 20, 260, 10 + i * 20));
  entities.push(point(1e6, 1e6), point(-5e5, 20), line(3e5, -3e5, 3e5 + 1, -3e5));
  entities.push({ type: 'XLINE', pairs: [[8, '0'], [100, 'AcDbXline'], [10, 100], [20, 50], [30, 0], [11, 1], [21, 1], [31, 0]] });
  return writeAsciiDxf({ header: [['$EXTMIN', [[10, -5e5], [20, -3e5], [30, 0]]], ['$EXTMAX', [[10, 1e6], [20, 1e6], [30, 0]]]], entities });
}
