/**
 * The LZ77 variant that compresses the pages of R2004-format DWG (AC1018, and AC1024–AC1032, which kept the
 * container). As the ODA specification (section 4.7) describes it and ACadSharp's DwgLZ77AC18Decompressor reads it
 * (MIT, read as documentation): literal runs and back-references, ended by opcode 0x11.
 *
 * Bounded: it never writes past `size` bytes nor reads past `end`; a stream that would is damaged and throws.
 */
export function decompressR2004(src: Uint8Array, start: number, end: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let pos = start;
  let o = 0;
  const next = () => {
    if (pos >= end) throw new RangeError('compressed page ends early');
    return src[pos++];
  };
  /** copies `n` bytes of the input as they are and answers the opcode after them */
  const literal = (n: number) => {
    if (pos + n > end || o + n > size) throw new RangeError('literal run out of bounds');
    out.set(src.subarray(pos, pos + n), o);
    pos += n;
    o += n;
    return next();
  };
  /** a length whose low bits are `bits` of the opcode: 0 there means "read on; each 0x00 byte adds 255" */
  const runLength = (op: number, bits: number) => {
    let n = op & bits;
    if (n === 0) {
      let b: number;
      while ((b = next()) === 0) n += 0xff;
      n += b + bits;
    }
    return n;
  };

  let op = next();
  if (op > 0x11) op = literal(op - 17);
  if ((op & 0xf0) === 0) op = literal(runLength(op, 0x0f) + 3);
  while (op !== 0x11) {
    let count: number;
    let offset: number;
    if (op < 0x10 || op >= 0x40) {
      count = (op >> 4) - 1;
      offset = (((op >> 2) & 3) | (next() << 2)) + 1;
    } else {
      // 0x10–0x1F: offsets past 16 K; 0x20–0x3F: two-byte offsets. The first of the two bytes carries the literal count.
      const far = op < 0x20;
      count = runLength(op, far ? 0x07 : 0x1f) + 2;
      const first = next();
      offset = ((far ? (op & 8) << 11 : 0) | (first >> 2) | (next() << 6)) + (far ? 0x4000 : 1);
      op = first;
    }
    if (offset > o || o + count > size) throw new RangeError('back-reference out of bounds');
    // byte by byte: the source may overlap what is being written (a repeated pattern)
    for (let k = 0; k < count; k++, o++) out[o] = out[o - offset];
    let lit = op & 3;
    if (lit === 0) {
      op = next();
      if ((op & 0xf0) === 0) lit = runLength(op, 0x0f) + 3;
    }
    if (lit > 0) op = literal(lit);
  }
  return o === size ? out : out.subarray(0, o);
}
