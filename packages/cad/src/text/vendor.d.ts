/**
 * Types for the two font libraries that ship none we can use: opentype.js 1.3.4 has no declarations, and
 * shx-parser is imported by its ES file path (its `main` is CommonJS), which TypeScript cannot map to its types.
 */
declare module 'opentype.js' {
  export interface PathCommand {
    type: 'M' | 'L' | 'Q' | 'C' | 'Z';
    x?: number;
    y?: number;
    x1?: number;
    y1?: number;
    x2?: number;
    y2?: number;
  }
  export class Path {
    moveTo(x: number, y: number): void;
    lineTo(x: number, y: number): void;
    close(): void;
  }
  export class Glyph {
    constructor(o: { name: string; unicode?: number; advanceWidth: number; path: Path });
    index: number;
    advanceWidth?: number;
    path: { commands: PathCommand[] } | (() => { commands: PathCommand[] });
    getPath(x?: number, y?: number, fontSize?: number): { commands: PathCommand[] };
  }
  export class Font {
    constructor(o: { familyName: string; styleName: string; unitsPerEm: number; ascender: number; descender: number; glyphs: Glyph[] });
    toArrayBuffer(): ArrayBuffer;
    unitsPerEm: number;
    ascender: number;
    descender: number;
    names: Record<string, Record<string, string> | undefined>;
    tables: { os2?: { sCapHeight?: number; sxHeight?: number } };
    glyphs: { get(index: number): Glyph; length: number };
    charToGlyphIndex(s: string): number;
    hasChar(c: string): boolean;
  }
  export function parse(buffer: ArrayBuffer, opt?: { lowMemory?: boolean }): Font;
  const opentype: { parse: typeof parse };
  export default opentype;
}

declare module '@mlightcad/shx-parser/dist/index.es.js' {
  export * from '@mlightcad/shx-parser';
}
