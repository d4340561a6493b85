/**
 * What a font file really is, from its first bytes (spec section 5: only ttf, ttc, shx). The extension alone
 * is not trusted: a renamed drawing or picture must not land in the library and later be fed to a font parser.
 */
export type FontKind = { type: 'ttf' | 'ttc' | 'shx'; isSubfont: boolean };

const TRUETYPE_MAGICS = ['00010000', '74727565' /* true */, '4f54544f' /* OTTO */, '74746366' /* ttcf */];
// AutoCAD shape files: "AutoCAD-86 shapes 1.0" (or 1.1), "AutoCAD-86 unifont 1.0", "AutoCAD-86 bigfont 1.0"
const SHX_HEADER = /^AutoCAD-86 (shapes|unifont|bigfont) 1\.\d/;

/** The kind of a font file with extension `ext` whose first bytes are `head` (32 are enough); null if not a font. */
export function sniffFont(ext: string, head: Uint8Array): FontKind | null {
  const e = ext.toLowerCase();
  const buf = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (e === 'ttf' || e === 'ttc') {
    // a .ttf that is really a collection (or the reverse) still is a TrueType/OpenType font: accepted
    if (buf.length < 12 || !TRUETYPE_MAGICS.includes(buf.subarray(0, 4).toString('hex'))) return null;
    return { type: e, isSubfont: false };
  }
  if (e === 'shx') {
    const m = SHX_HEADER.exec(buf.subarray(0, 32).toString('latin1'));
    if (!m) return null;
    return { type: 'shx', isSubfont: m[1] === 'bigfont' };
  }
  return null;
}

/** Default code page of a new font (section 9 values): Unicode for TrueType, ASCII for shapes, 936 for big fonts. */
export function defaultCodepage(kind: FontKind): number {
  if (kind.type !== 'shx') return 1200;
  return kind.isSubfont ? 39 : 1;
}
