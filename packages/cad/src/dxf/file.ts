import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { CadError, type Drawing } from '../model/drawing.ts';
import { parseDxf, readDrawing } from './reader.ts';
import { createAsciiReader, isBinaryDxf, type ByteSource } from './tokenizer.ts';

/**
 * A DXF file read in windows of a few MB instead of whole: for a 100 MB drawing the file's bytes are never in
 * memory next to the model (peak memory is the model plus one window). Same result as parseDxf of the bytes.
 * Binary DXF (rare, small) is read whole.
 */
export function parseDxfFile(file: string, windowBytes?: number): Drawing {
  const fd = openSync(file, 'r');
  try {
    const head = new Uint8Array(22);
    const got = readSync(fd, head, 0, 22, 0);
    if (got === 0) throw new CadError('cad.parseFailed', undefined, 'empty file');
    if (isBinaryDxf(head.subarray(0, got))) return parseDxf(readFileSync(file));
    let position = 0;
    const source: ByteSource = {
      fill(into, at) {
        const k = readSync(fd, into, at, into.length - at, position);
        position += k;
        return k;
      },
    };
    return readDrawing(createAsciiReader(new Uint8Array(0), new TextDecoder('windows-1252'), source, windowBytes), false);
  } finally {
    closeSync(fd);
  }
}
