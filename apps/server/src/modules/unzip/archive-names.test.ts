import { describe, expect, it } from 'vitest';
import { isValidItemName } from '@cadcloud/contracts';
import { cleanNamePart, decodeEntryName, legacyCodePage } from './archive-names.ts';

const bytes = (...b: number[]) => new Uint8Array(b);
// "中文图纸.dwg" in GBK, as Chinese Windows writes it into a zip without the UTF-8 flag
const GBK_NAME = bytes(0xd6, 0xd0, 0xce, 0xc4, 0xcd, 0xbc, 0xd6, 0xbd, 0x2e, 0x64, 0x77, 0x67);

describe('decodeEntryName', () => {
  it('reads UTF-8 when the flag says so', () => {
    expect(decodeEntryName(new TextEncoder().encode('平面图.dwg'), true)).toEqual({ name: '平面图.dwg', encoding: 'utf-8' });
  });

  it('reads UTF-8 without the flag when the bytes are valid UTF-8 (macOS, Linux zip)', () => {
    expect(decodeEntryName(new TextEncoder().encode('平面图.dwg'), false)).toEqual({ name: '平面图.dwg', encoding: 'utf-8' });
  });

  it('reads GBK when the flag is off and the bytes are not UTF-8', () => {
    expect(decodeEntryName(GBK_NAME, false)).toEqual({ name: '中文图纸.dwg', encoding: 'gbk' });
  });

  it('falls back to GBK when the flag lies', () => {
    expect(decodeEntryName(GBK_NAME, true)).toEqual({ name: '中文图纸.dwg', encoding: 'gbk' });
  });

  it('falls back to CP437 when neither UTF-8 nor GBK decodes', () => {
    // 0x80 is not a GBK lead byte; in CP437 0x80 0x81 are "Çü"; 0xFF is not GBK either
    expect(decodeEntryName(bytes(0x80, 0x81, 0x2e, 0x74, 0x78, 0x74), false)).toEqual({ name: 'Çü.txt', encoding: 'cp437' });
    expect(decodeEntryName(bytes(0x41, 0xff), false)).toEqual({ name: 'A\u00a0', encoding: 'cp437' });
  });
});

describe('cleanNamePart', () => {
  it('keeps a valid name untouched', () => {
    expect(cleanNamePart('中文图纸.dwg')).toEqual({ name: '中文图纸.dwg', fixes: [] });
  });

  it.each([
    ['a:b*c?.dwg', 'a_b_c_.dwg', 'forbidden-char'],
    ['x|y<z>"&.txt', 'x_y_z___.txt', 'forbidden-char'],
    ['a\\b.txt', 'a_b.txt', 'forbidden-char'],
    ['evil\u202egpj.exe', 'evil_gpj.exe', 'control-char'],
    ['tab\there.txt', 'tab_here.txt', 'control-char'],
    ['plan.dwg.', 'plan.dwg_', 'trailing-dot-or-space'],
    ['..', '_', 'dots-only'],
    ['..dwg', '_..dwg', 'dots-only'],
    ['CON.txt', '_CON.txt', 'device-name'],
    ['lpt1', '_lpt1', 'device-name'],
  ])('replaces, not refuses: %j → %j (%s)', (input, output, fix) => {
    const clean = cleanNamePart(input);
    expect(clean.name).toBe(output);
    expect(clean.fixes).toContain(fix);
    expect(isValidItemName(input)).toBe(false);
    expect(isValidItemName(clean.name)).toBe(true);
  });

  it('shortens a name over 255 characters and keeps its extension', () => {
    const clean = cleanNamePart(`${'图'.repeat(300)}.dwg`);
    expect(clean.name.length).toBe(255);
    expect(clean.name.endsWith('.dwg')).toBe(true);
    expect(clean.fixes).toEqual(['too-long']);
  });
});

// '도면' in EUC-KR; '図面ｶ' in Shift-JIS (the half-width ｶ, B6, followed by '.', is no GBK pair); '中文图纸' in GBK
const EUC_KR_NAME = bytes(0xb5, 0xb5, 0xb8, 0xe9, 0x2e, 0x64, 0x77, 0x67);
const SJIS_NAME = bytes(0x90, 0x7d, 0x96, 0xca, 0xb6, 0x2e, 0x64, 0x78, 0x66);

describe('legacyCodePage (issue 18 part 2: Shift-JIS / EUC-KR by the user\'s language)', () => {
  it('GBK for everyone whose language suggests nothing else, and for Chinese names a Japanese user receives', () => {
    expect(legacyCodePage([GBK_NAME], 'zh')).toBe('gbk');
    expect(legacyCodePage([EUC_KR_NAME], 'en')).toBe('gbk');
    expect(legacyCodePage([GBK_NAME], 'ja')).toBe('gbk');
    expect(legacyCodePage([SJIS_NAME], undefined)).toBe('gbk');
  });

  it('Shift-JIS for a Japanese user when GBK does not decode every name cleanly', () => {
    expect(legacyCodePage([SJIS_NAME], 'ja')).toBe('shift_jis');
    expect(legacyCodePage([SJIS_NAME], 'ja-JP')).toBe('shift_jis');
    expect(decodeEntryName(SJIS_NAME, false, 'shift_jis')).toEqual({ name: '図面ｶ.dxf', encoding: 'shift_jis' });
    // without the language: GBK fails, CP437 is the last resort
    expect(decodeEntryName(SJIS_NAME, false, legacyCodePage([SJIS_NAME], 'zh')).encoding).toBe('cp437');
  });

  it('EUC-KR for a Korean user when it decodes every name, even where GBK does too (the two overlap)', () => {
    expect(new TextDecoder('gbk', { fatal: true }).decode(EUC_KR_NAME)).not.toBe('도면.dwg');
    expect(legacyCodePage([EUC_KR_NAME], 'ko')).toBe('euc-kr');
    expect(legacyCodePage([EUC_KR_NAME], 'ko-KR')).toBe('euc-kr');
    expect(decodeEntryName(EUC_KR_NAME, false, 'euc-kr')).toEqual({ name: '도면.dwg', encoding: 'euc-kr' });
    // a name EUC-KR cannot read (0xFF is no lead byte anywhere): not all names decode, GBK's rules stay
    expect(legacyCodePage([EUC_KR_NAME, bytes(0xd6, 0xd0, 0xff)], 'ko')).toBe('gbk');
  });
});
