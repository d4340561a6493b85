/** $DWGCODEPAGE → a WHATWG decoder label (Node's full ICU has them all). R2007+ (AC1021+) files are UTF-8. */
const CODE_PAGES: Record<string, string> = {
  ANSI_936: 'gbk',
  ANSI_950: 'big5',
  ANSI_932: 'shift_jis',
  ANSI_949: 'euc-kr',
  ANSI_1361: 'euc-kr',
  ANSI_874: 'windows-874',
  ANSI_1250: 'windows-1250',
  ANSI_1251: 'windows-1251',
  ANSI_1252: 'windows-1252',
  ANSI_1253: 'windows-1253',
  ANSI_1254: 'windows-1254',
  ANSI_1255: 'windows-1255',
  ANSI_1256: 'windows-1256',
  ANSI_1257: 'windows-1257',
  ANSI_1258: 'windows-1258',
  DOS437: 'ibm866',
};

/** one decoder per label for the process: decode() without { stream } keeps no state between calls */
const decoders = new Map<string, TextDecoder>();

export function decoderFor(version: string, codePage: string): TextDecoder {
  const utf8 = version >= 'AC1021';
  const label = utf8 ? 'utf-8' : (CODE_PAGES[codePage.toUpperCase()] ?? 'windows-1252');
  let d = decoders.get(label);
  if (!d) decoders.set(label, (d = new TextDecoder(label, { fatal: false })));
  return d;
}

/** \M+nXXXX: n names the code page of the two bytes XXXX (1 Shift-JIS, 2 Big5, 3 Korean Wansung, 4 Johab, 5 GBK). */
const MBCS: Record<string, string> = { '1': 'shift_jis', '2': 'big5', '3': 'euc-kr', '4': 'euc-kr', '5': 'gbk' };
const mbcsDecoders = new Map<string, TextDecoder>();

/** a \U+ or \M+ escape somewhere in a string (one native scan; MTEXT is full of other backslash codes) */
const ESCAPE = /\\[UuMm]\+/;

/** Decodes the \U+XXXX and \M+nXXXX escapes DXF writers use for characters outside the file's code page. */
export function decodeEscapes(s: string): string {
  if (s.indexOf('\\') < 0 || !ESCAPE.test(s)) return s;
  return s
    .replace(/\\[Uu]\+([0-9A-Fa-f]{4})/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\[Mm]\+([1-5])([0-9A-Fa-f]{4})/g, (m, n, hex) => {
      const label = MBCS[n];
      let d = mbcsDecoders.get(label);
      if (!d) mbcsDecoders.set(label, (d = new TextDecoder(label)));
      const code = parseInt(hex, 16);
      const out = d.decode(new Uint8Array([code >> 8, code & 0xff]));
      return out.includes('\uFFFD') ? m : out;
    });
}
