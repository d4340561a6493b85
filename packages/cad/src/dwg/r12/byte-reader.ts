import { CadError } from '../../model/drawing.ts';

/** The one error of this reader: the spec's message, with where and why for the logs. */
export function r12Error(detail: string): CadError {
  return new CadError('cad.parseFailed', undefined, `DWG R10–R12: ${detail}`);
}

/**
 * Little-endian reads over one window of the file (the whole file, a section or one record). Every read is
 * checked against the window's end, so a truncated or garbled file stops with a CadError at the first byte it
 * lacks instead of reading neighbouring records, undefined or NaN. Pre-R13 DWG is byte aligned (no bit codes).
 */
export class ByteReader {
  pos: number;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly start = 0,
    readonly end = bytes.length,
    /** the file's one DataView, shared by every window of it (one per record would be most of the reading time) */
    view?: DataView,
  ) {
    if (start < 0 || end > bytes.length || start > end) throw r12Error(`window ${start}–${end} outside the file (${bytes.length} bytes)`);
    this.pos = start;
    this.view = view ?? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get left(): number {
    return this.end - this.pos;
  }

  /** A reader of [pos, pos + n) of the same bytes (a record inside a section), checked to lie within this one. */
  window(at: number, n: number): ByteReader {
    if (at < this.start || n < 0 || at + n > this.end) throw r12Error(`record at 0x${at.toString(16)} of ${n} bytes runs past 0x${this.end.toString(16)}`);
    return new ByteReader(this.bytes, at, at + n, this.view);
  }

  private need(n: number): number {
    const at = this.pos;
    if (at + n > this.end) throw r12Error(`truncated: ${n} bytes wanted at 0x${at.toString(16)}, window ends at 0x${this.end.toString(16)}`);
    this.pos = at + n;
    return at;
  }

  skip(n: number) {
    this.need(n);
  }

  u8(): number {
    return this.bytes[this.need(1)];
  }

  i8(): number {
    return this.view.getInt8(this.need(1));
  }

  u16(): number {
    return this.view.getUint16(this.need(2), true);
  }

  i16(): number {
    return this.view.getInt16(this.need(2), true);
  }

  u32(): number {
    return this.view.getUint32(this.need(4), true);
  }

  /** A double; NaN and infinities (only a damaged file has them) read as 0 so no renderer ever sees them. */
  f64(): number {
    const v = this.view.getFloat64(this.need(8), true);
    return Number.isFinite(v) ? v : 0;
  }

  raw(n: number): Uint8Array {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }

  /** A fixed-size name field (table entry names, font files): text up to the first NUL. */
  fixedText(n: number, decoder: TextDecoder): string {
    const b = this.raw(n);
    const nul = b.indexOf(0);
    return decoder.decode(nul < 0 ? b : b.subarray(0, nul));
  }

  /** A counted string (entity texts): 16-bit length, then the bytes; a NUL ends it early. */
  text(decoder: TextDecoder): string {
    return this.fixedText(this.u16(), decoder);
  }
}
