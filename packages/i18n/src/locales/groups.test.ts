import { describe, expect, it } from 'vitest';
import { groups } from './groups.ts';
import { errors } from './errors.ts';
import { LANGUAGES } from '../index.ts';

describe('groups locale', () => {
  it('every language has every key, none empty', () => {
    const keys = Object.keys(groups.en).sort();
    for (const lang of LANGUAGES) {
      const t = (groups as Record<string, Record<string, string>>)[lang];
      expect(Object.keys(t).sort(), lang).toEqual(keys);
      for (const k of keys) expect(t[k].trim(), `${lang}.${k}`).not.toBe('');
    }
  });
  it("the spec's group messages are verbatim in English", () => {
    expect(errors.en['group.sendFail']).toBe('group send fail');
    expect(errors.en['group.selectOne']).toBe('Please select at least one group');
  });
});
