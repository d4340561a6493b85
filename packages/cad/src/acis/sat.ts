import { END_MARKERS, isComplete, withoutPrefix, type AcisModel, type AcisRecord, type Token } from './records.ts';

/**
 * SAT text as DXF and DWG keep it (groups 1 and 3 of the entity, one ACIS line per group 1, continued in group 3):
 * every character but the space stored as 159 − its code, a literal ^ written "^ " by DXF's caret escapes.
 */
export function decodeDxfSat(lines: readonly string[]): string {
  return lines
    .map((t) => {
      const s = t.replaceAll('^ ', '^');
      let r = '';
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        r += c === 32 ? ' ' : String.fromCharCode(159 - c);
      }
      return r;
    })
    .join('\n');
}

/**
 * The records of SAT text. The first line is "version records bodies flags"; from ACIS 2 on two more header lines
 * follow (product, units and tolerances). Records end with "#", pointers are "$n", strings from ACIS 7 "@len text",
 * sub-types sit in braces; a record may start with its sequence number ("-12 edge …"). Null when it is not SAT.
 */
export function parseSat(text: string): AcisModel | null {
  const firstBreak = text.indexOf('\n');
  const head = (firstBreak < 0 ? text : text.slice(0, firstBreak)).trim().split(/\s+/);
  const version = Number(head[0]);
  if (!Number.isInteger(version) || version <= 0 || head.length < 3) return null;
  let pos = firstBreak < 0 ? text.length : firstBreak + 1;
  if (version >= 200) {
    for (let k = 0; k < 2 && pos < text.length; k++) {
      const nl = text.indexOf('\n', pos);
      pos = nl < 0 ? text.length : nl + 1;
    }
  }
  const records: AcisRecord[] = [];
  let type: string | null = null;
  let tokens: Token[] = [];
  let ended = false;
  const n = text.length;
  while (pos < n) {
    const c = text.charCodeAt(pos);
    if (c <= 32) {
      pos++;
      continue;
    }
    if (c === 35 /* # */) {
      if (type !== null) records.push({ type, data: withoutPrefix(type, tokens, version) });
      type = null;
      tokens = [];
      pos++;
      continue;
    }
    if (c === 64 /* @ */ && type !== null) {
      // a counted string: its length, one space, then exactly that many characters (which may hold spaces or #)
      let end = pos + 1;
      while (end < n && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
      const len = Number(text.slice(pos + 1, end));
      tokens.push({ k: 'word', v: text.slice(end + 1, end + 1 + len) });
      pos = end + 1 + len;
      continue;
    }
    let end = pos;
    while (end < n && text.charCodeAt(end) > 32 && text.charCodeAt(end) !== 35) end++;
    const word = text.slice(pos, end);
    pos = end;
    if (type === null) {
      // a leading sequence number belongs to no field
      if (/^-\d+$/.test(word)) continue;
      if (END_MARKERS.has(word)) {
        ended = true;
        break;
      }
      type = word;
      continue;
    }
    tokens.push(satToken(word));
  }
  return records.length ? { version, records, complete: isComplete(ended, records.length, Number(head[1]) || 0) } : null;
}

function satToken(w: string): Token {
  if (w === '{') return { k: 'open' };
  if (w === '}') return { k: 'close' };
  if (w.charCodeAt(0) === 36 /* $ */) {
    const v = Number(w.slice(1));
    if (Number.isInteger(v)) return { k: 'ref', v };
  }
  const v = Number(w);
  // "I" and "F" (infinite / finite interval ends) and every enum stay words; Number('') and 'Infinity' never occur
  return Number.isFinite(v) && w !== '' ? { k: 'num', v } : { k: 'word', v: w };
}
