import { describe, expect, it } from 'vitest';
import { isValidItemName, isValidRelativePath } from './rules.ts';

describe('item names (spec section 5, issue 14 item 13)', () => {
  it('refuses Windows device names with or without an extension, in any case', () => {
    for (const n of ['CON', 'con', 'Con.dwg', 'PRN.txt', 'aux', 'NUL.tar.gz', 'COM1', 'com9.dxf', 'LPT1', 'lpt0.pdf', 'COM¹', 'LPT³.dwg', 'CONIN$', 'conout$.txt', 'CON .dwg', 'nul ']) {
      expect(isValidItemName(n), n).toBe(false);
    }
    for (const n of ['CONSOLE.dwg', 'icon.png', 'COM10', 'LPT', 'aux-plan.dwg', 'nullable.txt', 'plan.con']) expect(isValidItemName(n), n).toBe(true);
  });

  it('refuses bidi controls, control characters, separators, a BOM and lone surrogates', () => {
    for (const c of ['\u202E', '\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C', '\u0000', '\u0009', '\u001F', '\u007F', '\u0085', '\u009F', '\u2028', '\u2029', '\uFEFF', '\uD800', '\uDC00']) {
      expect(isValidItemName(`plan${c}gwd.exe`), JSON.stringify(c)).toBe(false);
    }
    // joiners are part of scripts and emoji
    for (const n of ['👨‍👩‍👧.png', 'می‌خواهم.dwg', '图纸 A.dwg', 'Übersicht.dxf']) expect(isValidItemName(n), n).toBe(true);
  });

  it('refuses names of only dots or spaces, dot-only stems and trailing dots', () => {
    for (const n of ['.', '..', '...', '. .', ' . ', '..dwg', '...dwg', '. .dwg', 'plan.', 'plan.dwg.', 'Folder.']) expect(isValidItemName(n), n).toBe(false);
    for (const n of ['.gitignore', '.hidden.dwg', 'a.b.c.dwg', 'plan .dwg', 'v1.2']) expect(isValidItemName(n), n).toBe(true);
  });

  it('checks every part of a folder upload path', () => {
    expect(isValidRelativePath('Project/Sub/plan.dwg')).toBe(true);
    for (const p of ['Project/../plan.dwg', 'CON/plan.dwg', 'Project/a\u202Eb/plan.dwg', 'Project/plan.dwg.', '', '/']) expect(isValidRelativePath(p), p).toBe(false);
  });
});
