/**
 * ACIS model data (the body of REGION, 3DSOLID, BODY and the AutoCAD surfaces) as one list of records, whichever
 * form it came in: SAT text (sat.ts) or SAB binary (sab.ts). Each record is its type name ("edge",
 * "ellipse-curve", …) and its tokens after the common prefix (attribute pointer, and from ACIS 7 an id and one
 * more pointer), so the wireframe (wireframe.ts) reads the same fields from both forms.
 */

/**
 * One value of a record: a pointer to record `v` (-1 is none), a number, a word (SAT enums and booleans such as
 * "forward", "F", "open"; SAB booleans as "#T" / "#F", SAB enums as numbers), a string, or the brackets of a
 * sub-type ("{" … "}").
 */
export type Token = { k: 'ref'; v: number } | { k: 'num'; v: number } | { k: 'word'; v: string } | { k: 'open' } | { k: 'close' };

export interface AcisRecord {
  type: string;
  /** the record's data, the common prefix left out */
  data: Token[];
}

export interface AcisModel {
  /** the ACIS version (106, 400, 700, 21200 …) */
  version: number;
  /** by index: pointers ($n in SAT) are indices into this list */
  records: AcisRecord[];
  /**
   * the data is whole: its end marker was met, or it holds the number of records its header declares. Data cut
   * short (seen: LibreDWG's SAT of some DWG solids and surfaces; SAB once taken from the wrong place) is not drawn
   * at all: a partial wireframe would look like a different solid.
   */
  complete: boolean;
}

/** Whether records read up to `ended` (the end marker met) or to the end of the data make a whole model. */
export function isComplete(ended: boolean, records: number, declared: number): boolean {
  return ended || (declared > 0 && records >= declared);
}

/** Type names that end the model records (the history that may follow is not geometry). */
export const END_MARKERS = new Set(['End-of-ACIS-data', 'End-of-ASM-data', 'Begin-of-ACIS-History-data', 'End-of-ACIS-History-data']);

/**
 * The tokens of a record after its common prefix: the attribute pointer, and from ACIS 7 (version 700) an id and
 * one more pointer (ACIS writes both on every record but the ASM header).
 */
export function withoutPrefix(type: string, tokens: Token[], version: number): Token[] {
  if (type === 'asmheader') return tokens;
  return tokens.slice(version >= 700 ? 3 : 1);
}
