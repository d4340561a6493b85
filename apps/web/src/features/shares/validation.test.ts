import { describe, expect, it } from 'vitest';
import { LANGUAGES, shares } from '@cadcloud/i18n';
import { checkCodeKind, checkDays, checkEmails, checkGroups, checkPassword, checkPasswordUpdate, codeKindsFor, parseShareInput, splitEmails, splitRemaining } from './validation.ts';

describe('share form validation (spec section 5)', () => {
  it('valid days: an integer 0–99, with the spec messages for the rest', () => {
    for (const ok of ['0', '7', '99', ' 42 ', 15]) expect(checkDays(ok), String(ok)).toBeNull();
    for (const range of ['100', '-1', '3.5', '1000']) expect(checkDays(range), range).toBe('shares.error.daysRange');
    for (const nan of ['abc', '7d', '１', '1e2', '--1', '0x10']) expect(checkDays(nan), nan).toBe('shares.error.daysNumber');
    expect(checkDays('')).toBe('shares.error.daysRange');
    expect(checkDays('  ', true)).toBe('shares.error.daysEmpty'); // mobile: 'Share days cannot be empty'
    expect(checkDays(undefined, true)).toBe('shares.error.daysEmpty');
  });

  it('a new share password is empty or exactly 4 letters or digits', () => {
    for (const ok of ['', 'ab12', 'ABCD', '0000']) expect(checkPassword(ok), ok).toBeNull();
    for (const bad of ['abc', 'abcde', 'ab-1', 'ab 1', '密码密码']) expect(checkPassword(bad), bad).toBe('shares.error.password');
  });

  it('a password set later must be 4 digits (empty removes it)', () => {
    expect(checkPasswordUpdate('')).toBeNull();
    expect(checkPasswordUpdate('1234')).toBeNull();
    for (const bad of ['ab12', '123', '12345']) expect(checkPasswordUpdate(bad), bad).toBe('shares.error.passwordDigits');
  });

  it('e-mail share: at least one address, each well formed', () => {
    expect(checkEmails('')).toBe('shares.error.emailEmpty');
    expect(checkEmails(' ,; \n')).toBe('shares.error.emailEmpty');
    expect(checkEmails('a@example.com')).toBeNull();
    expect(checkEmails('a@example.com, b@example.org;c@example.net\nd@x.io')).toBeNull();
    expect(checkEmails('a@example.com, not-an-address')).toBe('shares.error.email');
    expect(checkEmails('a@example')).toBe('shares.error.email');
    expect(splitEmails('a@x.io，b@x.io；a@x.io')).toEqual(['a@x.io', 'b@x.io']);
    // at most 20 at a time (the server's limit, with its reason)
    expect(checkEmails(Array.from({ length: 20 }, (_, i) => `a${i}@x.io`).join(','))).toBeNull();
    expect(checkEmails(Array.from({ length: 21 }, (_, i) => `a${i}@x.io`).join(','))).toBe('shares.error.emailTooMany');
  });

  it('the code must outlast the validity: 4 digits up to 13 days, 6 digits up to 99, permanent needs 8 characters or a password', () => {
    expect(codeKindsFor('7', '')).toEqual(['digits4', 'digits6', 'alnum8']);
    expect(codeKindsFor('13', '')).toEqual(['digits4', 'digits6', 'alnum8']);
    expect(codeKindsFor('14', '')).toEqual(['digits6', 'alnum8']);
    expect(codeKindsFor('99', '')).toEqual(['digits6', 'alnum8']);
    expect(codeKindsFor('0', '')).toEqual(['alnum8']);
    expect(codeKindsFor('0', 'ab12')).toEqual(['digits4', 'digits6', 'alnum8']);
    expect(codeKindsFor('0', 'ab-')).toEqual(['alnum8']); // an invalid password protects nothing
    expect(codeKindsFor('x', '')).toEqual(['digits4', 'digits6', 'alnum8']); // the days field shows its own error
    expect(checkCodeKind('digits4', '0', '')).toBe('shares.error.codeTooShort');
    expect(checkCodeKind('alnum8', '0', '')).toBeNull();
    expect(checkCodeKind('digits6', '30', '')).toBeNull();
  });

  it('group share: at least one group', () => {
    expect(checkGroups([])).toBe('shares.error.groupEmpty');
    expect(checkGroups(['g1'])).toBeNull();
  });

  it('reads pasted share links (with the copied code and password) and bare share codes', () => {
    expect(parseShareInput('http://h:8080/share/AbC123xy')).toEqual({ rand: 'AbC123xy', easy: false });
    expect(parseShareInput('链接：https://cad.example/share/AbC123xy 提取码：4821 提取密码：ab12')).toEqual({ rand: 'AbC123xy', easy: false, code: '4821', password: 'ab12' });
    expect(parseShareInput('Link: https://cad.example/webH5/share/s-9/AbC123xy Extraction code: 0042')).toEqual({ rand: 'AbC123xy', shareId: 's-9', easy: false, code: '0042' });
    expect(parseShareInput('https://cad.example/easyShare/Zz99zz99')).toEqual({ rand: 'Zz99zz99', easy: true });
    expect(parseShareInput('https://cad.example/webH5/simple/Zz99zz99')).toEqual({ rand: 'Zz99zz99', easy: true });
    expect(parseShareInput('  AbC123xy ')).toEqual({ rand: 'AbC123xy', easy: false });
    expect(parseShareInput('Link: https://cad.example/share/AbC123xy Extraction code: 482913')).toMatchObject({ code: '482913' });
    expect(parseShareInput('链接：https://cad.example/share/AbC123xy 提取码：K7M2Q9XW')).toMatchObject({ code: 'k7m2q9xw' });
    expect(parseShareInput('https://cad.example/share/AbC123xy code: 12345')).toEqual({ rand: 'AbC123xy', easy: false });
    expect(parseShareInput('')).toBeNull();
    expect(parseShareInput('hello world')).toBeNull();
  });

  it('splits remaining time for display; null means permanent', () => {
    expect(splitRemaining(null)).toBeNull();
    expect(splitRemaining(0)).toEqual({ days: 0, hours: 0, minutes: 0 });
    expect(splitRemaining(((2 * 24 + 3) * 60 + 5) * 60_000 + 999)).toEqual({ days: 2, hours: 3, minutes: 5 });
  });
});

describe('shares texts', () => {
  it('every language has every key, none empty; the spec messages are verbatim in English', () => {
    const keys = Object.keys(shares.en).sort();
    for (const lang of LANGUAGES) {
      const table = shares[lang] as Record<string, string>;
      expect(Object.keys(table).sort(), lang).toEqual(keys);
      for (const k of keys) expect(table[k].trim(), `${lang}.${k}`).not.toBe('');
    }
    expect(shares.en['shares.error.daysRange']).toBe('Please enter a positive integer 0-99!');
    expect(shares.en['shares.error.daysNumber']).toBe('Please enter the correct number');
    expect(shares.en['shares.error.daysEmpty']).toBe('Share days cannot be empty');
    expect(shares.en['shares.error.passwordDigits']).toBe('Password must be 4 digits');
    expect(shares.en['shares.error.email']).toBe('E-mail format is incorrect');
    expect(shares.en['shares.error.emailEmpty']).toBe('Please enter the sending email address');
    expect(shares.en['shares.error.emailFail']).toBe('email send fail');
    expect(shares.en['shares.page.gone']).toBe('This share no longer exists');
  });
});
