import { describe, expect, it } from 'vitest';
import { nodeBundledFiles, subsetsNaming } from './bundled.ts';

// the few-characters path (ranges matched while the list is read) against the sorted list of every range
describe('subsets naming a character', () => {
  for (const dir of ['@fontsource/noto-sans-sc', '@fontsource/noto-sans-kr', '@fontsource/noto-sans']) {
    it(`finds the same subsets in the same order either way (${dir})`, async () => {
      const map = JSON.parse(new TextDecoder().decode((await nodeBundledFiles(`${dir}/unicode.json`))!)) as Record<string, string>;
      const cps = [0x20, 0x41, 0x7e, 0xb0, 0xb1, 0x141, 0x3a9, 0x416, 0x4e00, 0x4e2d, 0x56fd, 0x9fa5, 0xac00, 0xd55c, 0xff0c, 0x1f600, 0x10ffff];
      const few = subsetsNaming(map, cps);
      // more than the few-characters limit: the sorted path, the same answers for the same code points
      const many = subsetsNaming(map, [...cps, ...Array.from({ length: 60 }, (_, i) => 0x3000 + i * 97)]).slice(0, cps.length);
      expect(few).toEqual(many);
      // the CJK lists name ASCII in a dozen subsets: the order among them matters
      if (!dir.endsWith('noto-sans')) expect(few.some((keys) => keys.length > 1)).toBe(true);
      expect(few[cps.indexOf(0x10ffff)]).toEqual([]);
    });
  }
});
