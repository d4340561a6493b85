/**
 * A DXF text writer for the DwgDatabase fallback (database-to-dxf.ts): group code / value lines, nothing else.
 * The DwgDatabase arrives over IPC as plain objects whose shape depends on the entity type (LibreDWG's
 * converter), so the mappers read it through the small checked accessors below, never through casts.
 */

/** One object of the DwgDatabase as it came over IPC. */
export type Rec = { readonly [key: string]: unknown };

export interface XY {
  x: number;
  y: number;
  z: number;
}

export const rec = (v: unknown): Rec => (v && typeof v === 'object' ? (v as Rec) : {});
export const recs = (v: unknown): Rec[] => (Array.isArray(v) ? v.map(rec) : []);
export const num = (o: Rec, key: string, d = 0): number => {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? Number(v) : d;
};
export const str = (o: Rec, key: string, d = ''): string => {
  const v = o[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : d;
};
export const pt = (o: Rec, key: string, d: XY = { x: 0, y: 0, z: 0 }): XY => {
  const p = o[key];
  if (!p || typeof p !== 'object') return d;
  const r = p as Rec;
  return { x: num(r, 'x'), y: num(r, 'y'), z: num(r, 'z') };
};
export const has = (o: Rec, key: string) => o[key] !== undefined && o[key] !== null;

export const DEG = 180 / Math.PI;

export class DxfOut {
  private readonly lines: string[] = [];

  /**
   * @param utf8 R2007+ (AC1021+) DXF is UTF-8; older versions are read in the file's code page, so their
   * non-ASCII characters are written as \U+XXXX escapes, which our reader decodes in every name and text.
   */
  constructor(private readonly utf8: boolean) {}

  pair(code: number, value: string | number): this {
    this.lines.push(String(code), typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '0') : this.text(value));
    return this;
  }

  /** a point as 10/20/30 (or 11/21/31 … with base 11); z left out for 2D codes when asked */
  point(base: number, p: { x: number; y: number; z?: number }, withZ = true): this {
    this.pair(base, p.x).pair(base + 10, p.y);
    if (withZ) this.pair(base + 20, p.z ?? 0);
    return this;
  }

  /** an angle given in radians (LibreDWG's unit) written in degrees (DXF's) */
  angle(code: number, radians: number): this {
    return this.pair(code, radians * DEG);
  }

  /** the value only when it differs from the DXF default (keeps the text small, the reader's defaults apply) */
  unless(code: number, value: number, dflt: number): this {
    return value === dflt ? this : this.pair(code, value);
  }

  private text(s: string): string {
    // a value is one line: line breaks inside texts become MTEXT's paragraph code
    const one = s.replace(/\r\n|\r|\n/g, '\\P');
    if (this.utf8) return one;
    // eslint-disable-next-line no-control-regex
    return one.replace(/[^\x00-\x7e]/g, (c) => `\\U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  }

  toString(): string {
    return this.lines.join('\n') + '\n';
  }
}
