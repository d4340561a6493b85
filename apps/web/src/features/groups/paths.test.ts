import { describe, expect, it } from 'vitest';
import { groupPathIn, groupsBase } from './paths.ts';

describe('group pages across layouts', () => {
  it('keeps an invitation link or an open group when the other layout takes over', () => {
    expect(groupPathIn('/webH5', '/yun/group/join/abc_DEF-1')).toBe('/webH5/group/join/abc_DEF-1');
    expect(groupPathIn('/yun', '/webH5/group/join/abc')).toBe('/yun/group/join/abc');
    expect(groupPathIn('/webH5', '/yun/group?id=g1')).toBe('/webH5/group?id=g1');
    expect(groupPathIn('/webH5', '/yun/group')).toBe('/webH5/group');
    expect(groupPathIn('/yun', '/webH5/group/g1/view/s1/f1')).toBe('/yun/group/g1/view/s1/f1');
  });
  it('leaves other pages to the layout default', () => {
    expect(groupPathIn('/webH5', '/yun/recent')).toBeNull();
    expect(groupPathIn('/webH5', '/yun/groups')).toBeNull();
    expect(groupPathIn('/yun', '/webH5')).toBeNull();
    expect(groupPathIn('/yun', '/share/group')).toBeNull();
  });
  it('knows which layout a page is in', () => {
    expect(groupsBase('/webH5/group')).toBe('/webH5');
    expect(groupsBase('/yun/group/join/x')).toBe('/yun');
  });
});
