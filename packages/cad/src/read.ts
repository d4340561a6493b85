import { parseDxf } from './dxf/reader.ts';
import type { Drawing } from './model/drawing.ts';

/** DWG-family files (dwt templates and dws standards are DWG inside) go through LibreDWG, the rest are DXF. */
export function isDwgName(fileName: string): boolean {
  return /\.(dwg|dwt|dws)$/i.test(fileName);
}

// The DWG readers (our R12 reader, the LibreDWG process and the DXF writer of its databases) load with the first DWG:
// a DXF never needs them, and `cad info` on a DXF is timed from node's start (scripts/build.test.ts).
let dwgReader: Promise<typeof import('./dwg/dwg-reader.ts')> | undefined;
const dwg = () => (dwgReader ??= import('./dwg/dwg-reader.ts'));

export async function readDrawing(bytes: Uint8Array, fileName: string, o: { timeoutMs?: number } = {}): Promise<Drawing> {
  // a DWG renamed .dxf is still read: its first bytes say "AC10"
  if (isDwgName(fileName) || (bytes.length > 6 && String.fromCharCode(...bytes.subarray(0, 4)) === 'AC10')) return (await dwg()).parseDwg(bytes, { timeoutMs: o.timeoutMs ?? 60_000 });
  return parseDxf(bytes);
}

/** Ends the DWG reader process if a read here started one (a command line's last step, so node can exit). */
export async function stopDwgReader(): Promise<void> {
  if (dwgReader) (await dwgReader).stopDwgWorker();
}
