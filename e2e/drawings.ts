/** Drawings the browser tests make in code. */

/** A small floor-plan-like DXF: walls in red (colour 1) and a text. */
export function planDxf(): string {
  const e: string[] = [];
  const line = (x1: number, y1: number, x2: number, y2: number) => e.push('0', 'LINE', '8', 'WALLS', '62', '1', '10', String(x1), '20', String(y1), '30', '0', '11', String(x2), '21', String(y2), '31', '0');
  line(0, 0, 200, 0); line(200, 0, 200, 120); line(200, 120, 0, 120); line(0, 120, 0, 0); line(80, 0, 80, 120); line(80, 60, 200, 60);
  e.push('0', 'TEXT', '8', 'TEXT', '10', '20', '20', '90', '30', '0', '40', '8', '1', 'KITCHEN');
  return ['0', 'SECTION', '2', 'ENTITIES', ...e, '0', 'ENDSEC', '0', 'EOF', ''].join('\n');
}
