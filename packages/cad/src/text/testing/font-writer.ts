import { Font, Glyph, Path } from 'opentype.js';

/**
 * Small OpenType fonts written with opentype.js for tests, and a TrueType collection (.ttc) joining them:
 * real files through the real parser, with outlines whose areas the tests can compute by hand.
 */
export function writeFont(family: string, outlines: Record<string, number[][]>, advance = 800): ArrayBuffer {
  const notdef = new Glyph({ name: '.notdef', advanceWidth: advance, path: new Path() });
  const glyphs = [notdef];
  for (const [ch, rings] of Object.entries(outlines)) {
    const p = new Path();
    for (const r of rings) {
      p.moveTo(r[0], r[1]);
      for (let i = 2; i < r.length; i += 2) p.lineTo(r[i], r[i + 1]);
      p.close();
    }
    glyphs.push(new Glyph({ name: `g${ch.charCodeAt(0)}`, unicode: ch.charCodeAt(0), advanceWidth: advance, path: p }));
  }
  return new Font({ familyName: family, styleName: 'Regular', unitsPerEm: 1000, ascender: 800, descender: -200, glyphs }).toArrayBuffer();
}

/** 'ttcf' header, then each font with its table offsets moved to where the font now lies. */
export function writeCollection(fonts: ArrayBuffer[]): Uint8Array {
  const head = 12 + 4 * fonts.length;
  const bases: number[] = [];
  let size = head;
  for (const f of fonts) {
    bases.push(size);
    size += (f.byteLength + 3) & ~3;
  }
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x74746366);
  v.setUint32(4, 0x00010000);
  v.setUint32(8, fonts.length);
  fonts.forEach((f, i) => {
    v.setUint32(12 + 4 * i, bases[i]);
    out.set(new Uint8Array(f), bases[i]);
    const n = v.getUint16(bases[i] + 4);
    for (let t = 0; t < n; t++) {
      const at = bases[i] + 12 + 16 * t + 8;
      v.setUint32(at, v.getUint32(at) + bases[i]);
    }
  });
  return out;
}
