import { FORBIDDEN_NAME_CHARS, MAX_NAME_LENGTH, isValidItemName, extensionOf } from '@cadcloud/contracts';

/**
 * Names inside archives, turned into names the drive accepts.
 *
 * A zip stores each name as bytes. Bit 11 of the entry's flags says "UTF-8"; without it the bytes are in the code
 * page of the machine that made the zip: GBK for most zips made on Chinese Windows (the Explorer's "Send to
 * compressed folder" and older WinRAR), CP437 for the rest of the old DOS world. Tools that never set the flag but
 * write UTF-8 anyway (macOS's Archive Utility, Linux `zip`) are caught by checking whether the bytes are valid
 * UTF-8: GBK and CP437 text with bytes above 0x7F is almost never valid UTF-8 by accident.
 */
export type NameEncoding = 'utf-8' | LegacyCodePage | 'cp437';
/**
 * The code page an archive's unflagged, non-UTF-8 names are read in (`legacyCodePage`): GBK, unless the user's
 * language is Japanese or Korean and the names say so (issue 18 part 2).
 */
export type LegacyCodePage = 'gbk' | 'shift_jis' | 'euc-kr';

export interface DecodedName {
  name: string;
  encoding: NameEncoding;
}

// fatal: a decoder that refuses bad bytes instead of writing U+FFFD, so "did it decode" is a real answer
const utf8 = new TextDecoder('utf-8', { fatal: true });
// Node's full ICU carries GBK (a superset of GB2312); no dependency needed
const gbk = new TextDecoder('gbk', { fatal: true });
// WHATWG's euc-kr is Windows-949 (UHC), what Korean Windows writes; shift_jis is Windows-31J
const DECODERS: Record<LegacyCodePage, TextDecoder> = { gbk, shift_jis: new TextDecoder('shift_jis', { fatal: true }), 'euc-kr': new TextDecoder('euc-kr', { fatal: true }) };
/** The code page a user's language (a clientInfo.language tag, "ko-KR") suggests besides GBK. */
const BY_LANGUAGE: Record<string, LegacyCodePage> = { ja: 'shift_jis', ko: 'euc-kr' };
/**
 * ICU's GBK does not throw on every bad byte even when fatal: 0xFF comes out as U+F8F5, and GBK's user-defined
 * areas map into the Private Use Area too. No real file name uses those, so such a result means "not GBK".
 */
const PRIVATE_USE = /[\ue000-\uf8ff]/;

/**
 * The upper half of code page 437 (bytes 0x80–0xFF); the lower half is ASCII. TextDecoder has no CP437, and this
 * table is the whole of it. Every byte maps to something, so CP437 is the decoder that never fails: the last resort.
 */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

function decodeCp437(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
  return out;
}

/** Whether an unflagged name is not UTF-8: the archive's names are in a code page (see decodeEntryName). */
export function isLegacyName(raw: Uint8Array, utf8Flag: boolean): boolean {
  return !utf8Flag && tryDecode(utf8, raw) === undefined;
}

/** A clean decoding in a code page: every byte understood and nothing in the Private Use Area. */
function decodeClean(codePage: LegacyCodePage, bytes: Uint8Array): string | undefined {
  const text = tryDecode(DECODERS[codePage], bytes);
  return text !== undefined && !PRIVATE_USE.test(text) ? text : undefined;
}

/**
 * The code page of an archive whose names are not UTF-8 (`names`: those unflagged names that are not valid UTF-8),
 * for a user of `language`. GBK is the rule (most such zips come from Chinese Windows). A Korean user's archive is
 * read as EUC-KR when that decodes every name, even where GBK does too: the two share their byte ranges, and GBK reads
 * Korean names as Chinese nonsense without failing. A Japanese user's is read as Shift-JIS only when GBK fails on a
 * name: Shift-JIS reads almost any bytes (0xA1–0xDF are half-width katakana), so it proves nothing by decoding.
 */
export function legacyCodePage(names: Uint8Array[], language: string | undefined): LegacyCodePage {
  const suggested = BY_LANGUAGE[(language ?? '').toLowerCase().split(/[-_]/)[0]];
  const all = (cp: LegacyCodePage) => names.every((n) => decodeClean(cp, n) !== undefined);
  if (suggested === 'euc-kr' && all('euc-kr')) return 'euc-kr';
  if (all('gbk')) return 'gbk';
  if (suggested && all(suggested)) return suggested;
  return 'gbk';
}

function tryDecode(decoder: TextDecoder, bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The entry's name as text: UTF-8 when flagged or valid, else GBK, else CP437. `codePage`: another unflagged name of
 * the same archive is not UTF-8, so the archive was made in a code page (`legacyCodePage`), tried first: short GBK
 * names can be valid UTF-8 by accident ("图纸" is CD BC D6 BD, which UTF-8 reads as "ͼֽ").
 */
export function decodeEntryName(raw: Uint8Array, utf8Flag: boolean, codePage?: LegacyCodePage): DecodedName {
  if (utf8Flag) {
    // a flag that lies (bytes that are not UTF-8) falls through to the code pages rather than showing U+FFFD
    const flagged = tryDecode(utf8, raw);
    if (flagged !== undefined) return { name: flagged, encoding: 'utf-8' };
  }
  if (codePage) {
    const inPage = decodeClean(codePage, raw);
    if (inPage !== undefined) return { name: inPage, encoding: codePage };
  }
  const asUtf8 = tryDecode(utf8, raw);
  if (asUtf8 !== undefined) return { name: asUtf8, encoding: 'utf-8' };
  const asGbk = decodeClean('gbk', raw);
  if (asGbk !== undefined) return { name: asGbk, encoding: 'gbk' };
  return { name: decodeCp437(raw), encoding: 'cp437' };
}

/** What had to change in one path part for the drive to accept it; reported to the user, never silent. */
export type NameFix = 'forbidden-char' | 'control-char' | 'trailing-dot-or-space' | 'dots-only' | 'device-name' | 'too-long';

export interface CleanName {
  name: string;
  fixes: NameFix[];
}

const REPLACEMENT = '_';
// the same classes as contracts' isValidItemName: control characters, bidi controls, separators, BOM, lone surrogates
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Bidi_Control}\u2028\u2029\ufeff\p{Cs}]/gu;
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|(com|lpt)[0-9\u00b9\u00b2\u00b3])$/i;

/**
 * One part of an entry's path (a file or folder name, no slashes) made valid by the drive's rules (spec section 5,
 * `isValidItemName`): bad characters are replaced, not refused, so one odd name does not fail a whole archive.
 * The result always passes `isValidItemName`.
 */
export function cleanNamePart(part: string): CleanName {
  const fixes = new Set<NameFix>();
  let name = part.trim();
  const noControl = name.replace(INVISIBLE_OR_CONTROL, REPLACEMENT);
  if (noControl !== name) fixes.add('control-char');
  name = noControl;
  let noForbidden = '';
  for (const ch of name) noForbidden += (FORBIDDEN_NAME_CHARS as readonly string[]).includes(ch) ? REPLACEMENT : ch;
  if (noForbidden !== name) fixes.add('forbidden-char');
  name = noForbidden.trim();
  if (/^[.\s]*$/.test(name)) {
    // "", ".", ". ." : nothing left that names anything
    fixes.add('dots-only');
    name = REPLACEMENT;
  }
  if (/[.\s]$/.test(name)) {
    // Windows drops trailing dots, so "plan.dwg." would become "plan.dwg" there and clash
    fixes.add('trailing-dot-or-space');
    name = name.replace(/[.\s]+$/, '') + REPLACEMENT;
  }
  const ext = extensionOf(name);
  const stem = ext ? name.slice(0, -(ext.length + 1)) : name;
  if (/^[.\s]+$/.test(stem)) {
    // "..dwg" reads as a path part
    fixes.add('dots-only');
    name = REPLACEMENT + name;
  }
  if (WINDOWS_DEVICE_NAME.test(name.split('.')[0].trimEnd())) {
    fixes.add('device-name');
    name = REPLACEMENT + name;
  }
  if (name.length > MAX_NAME_LENGTH) {
    fixes.add('too-long');
    // keep the extension: it decides how the drive opens the file
    const keep = ext && ext.length < 32 ? `.${ext}` : '';
    let cut = name.slice(0, MAX_NAME_LENGTH - keep.length);
    // never leave half a surrogate pair at the cut
    if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
    name = cut.replace(/[.\s]+$/, '') + keep;
  }
  if (!isValidItemName(name)) throw new Error(`cleanNamePart produced an invalid name: ${JSON.stringify(name)}`);
  return { name, fixes: [...fixes] };
}
