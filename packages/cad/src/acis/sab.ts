import { END_MARKERS, isComplete, withoutPrefix, type AcisModel, type AcisRecord, type Token } from './records.ts';

/**
 * SAB, the binary form of ACIS data: what AutoCAD 2013 on keeps in the ACDSDATA section of a DXF (and what DWG files
 * from R2004 may hold). A signature ("ACIS BinaryFile" or "ASM BinaryFile4"), four 32-bit integers (version,
 * records, bodies, flags), three strings and three doubles; then records of tagged values, each ended by tag 0x11.
 * Little-endian throughout.
 */
const SIGNATURES = ['ACIS BinaryFile', 'ASM BinaryFile4'];

/** The records of SAB bytes, or null when they are not SAB. Stops at the end marker or at a tag it does not know. */
export function parseSab(bytes: Uint8Array): AcisModel | null {
  const sig = SIGNATURES.find((s) => bytes.length > s.length + 16 && [...s].every((ch, i) => bytes[i] === ch.charCodeAt(0)));
  if (!sig) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder();
  let pos = sig.length;
  const need = (k: number) => {
    if (pos + k > bytes.length) throw new RangeError('SAB data ends early');
  };
  const int = () => {
    need(4);
    const v = view.getInt32(pos, true);
    pos += 4;
    return v;
  };
  const double = () => {
    need(8);
    const v = view.getFloat64(pos, true);
    pos += 8;
    return v;
  };
  const str = (len: number) => {
    need(len);
    const s = utf8.decode(bytes.subarray(pos, pos + len));
    pos += len;
    return s;
  };
  const records: AcisRecord[] = [];
  try {
    const version = int();
    const declared = int(); // records (often 0)
    const model = (ended: boolean): AcisModel | null => (records.length ? { version, records, complete: isComplete(ended, records.length, declared) } : null);
    int(); // bodies
    int(); // flags
    // product, ACIS version and date (tag 7, 8-bit length), then units and two tolerances (tag 6)
    for (let k = 0; k < 3; k++) {
      need(2);
      if (bytes[pos] !== 7) return null;
      pos++;
      str(bytes[pos++]);
    }
    for (let k = 0; k < 3; k++) {
      need(1);
      if (bytes[pos++] !== 6) return null;
      double();
    }
    let name: string[] = [];
    let type: string | null = null;
    let tokens: Token[] = [];
    while (pos < bytes.length) {
      const tag = bytes[pos++];
      switch (tag) {
        case 0x04: // integer
        case 0x15: // enumeration (SAT writes its name, SAB its number)
          tokens.push({ k: 'num', v: int() });
          break;
        case 0x06:
        case 0x17:
          tokens.push({ k: 'num', v: double() });
          break;
        case 0x07:
          need(1);
          tokens.push({ k: 'word', v: str(bytes[pos++]) });
          break;
        case 0x12:
          tokens.push({ k: 'word', v: str(int()) });
          break;
        case 0x0a:
          tokens.push({ k: 'word', v: '#T' });
          break;
        case 0x0b:
          tokens.push({ k: 'word', v: '#F' });
          break;
        case 0x0c:
          tokens.push({ k: 'ref', v: int() });
          break;
        case 0x0e: // a leading part of a type name ("plane" of "plane-surface")
          need(1);
          name.push(str(bytes[pos++]));
          break;
        case 0x0d: {
          need(1);
          name.push(str(bytes[pos++]));
          const full = name.join('-');
          name = [];
          if (type === null) {
            if (END_MARKERS.has(full)) return model(true);
            type = full;
          } else tokens.push({ k: 'word', v: full });
          break;
        }
        case 0x0f:
          tokens.push({ k: 'open' });
          break;
        case 0x10:
          tokens.push({ k: 'close' });
          break;
        case 0x13:
        case 0x14:
          tokens.push({ k: 'num', v: double() }, { k: 'num', v: double() }, { k: 'num', v: double() });
          break;
        case 0x11:
          if (type !== null) records.push({ type, data: withoutPrefix(type, tokens, version) });
          type = null;
          tokens = [];
          break;
        default:
          // an unknown tag: the rest cannot be split into records
          return model(false);
      }
    }
    return model(false);
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}
