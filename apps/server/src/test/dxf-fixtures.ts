/** Drawings made in code for server tests. */

/** A small DXF: a frame of lines and a text, `n` extra lines so two files differ. */
export function sampleDxf(n = 4): Buffer {
  const e: string[] = [];
  const line = (x1: number, y1: number, x2: number, y2: number) => e.push('0', 'LINE', '8', '0', '10', String(x1), '20', String(y1), '30', '0', '11', String(x2), '21', String(y2), '31', '0');
  line(0, 0, 100, 0); line(100, 0, 100, 60); line(100, 60, 0, 60); line(0, 60, 0, 0);
  for (let i = 0; i < n; i++) line(10 + i, 10, 90 - i, 50);
  e.push('0', 'TEXT', '8', '0', '10', '10', '20', '30', '30', '0', '40', '5', '1', 'PLAN');
  return Buffer.from(['0', 'SECTION', '2', 'ENTITIES', ...e, '0', 'ENDSEC', '0', 'EOF', ''].join('\n'));
}
