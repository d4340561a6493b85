/** `cad info <file>`: the facts of a drawing as JSON (info.ts). A DXF loads only its reader, the model and the flattening. */
import { readFileSync } from 'node:fs';
import { drawingInfo } from '../info.ts';
import { readDrawing } from '../read.ts';
import { DWG_TIMEOUT_MS } from './usage.ts';

export async function info(file: string) {
  console.log(JSON.stringify(drawingInfo(await readDrawing(readFileSync(file), file, { timeoutMs: DWG_TIMEOUT_MS })), null, 2));
}
