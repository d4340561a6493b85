// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { LANGUAGES, library } from '@cadcloud/i18n';
import type { Item } from '@cadcloud/contracts';
import { publishAction } from './PublishButton.tsx';

const item = (name: string, o: Partial<Item> = {}): Item => ({ id: name, name, type: name.split('.').pop()!, fileType: 1, size: 1, version: 1, versionalias: 'V1', descp: '', modifytime: '', createtime: '', modifyTimestamp: 0, parentId: '0', uid: 'u', fileMD5: '', privateType: '1', freeze: 0, thumbkey: '', transformStatus: 3, ...o });

describe('the public-drawing dialog\'s choice', () => {
  it('publishes private drawings, unpublishes public ones, refuses folders, non-drawings and mixed selections', () => {
    expect(publishAction([])).toBe('none');
    expect(publishAction([item('a.dwg'), item('b.DXF'), item('c.dwt'), item('d.dws')])).toBe('publish');
    expect(publishAction([item('a.dwg', { privateType: '0' })])).toBe('unpublish');
    expect(publishAction([item('a.dwg'), item('b.dxf', { privateType: '0' })])).toBe('mixed');
    expect(publishAction([item('a.dwg'), item('photo.png')])).toBe('notDrawing');
    expect(publishAction([item('notes.txt')])).toBe('notDrawing');
    expect(publishAction([item('Plans', { fileType: 0, type: 'folder' })])).toBe('notDrawing');
    expect(publishAction([item('plans.dwg', { fileType: 0, type: 'folder' })])).toBe('notDrawing');
  });
});

describe('library texts', () => {
  it('every language has every key, none empty', () => {
    const keys = Object.keys(library.en).sort();
    for (const lang of LANGUAGES) {
      const t = library[lang] as Record<string, string>;
      expect(Object.keys(t).sort(), lang).toEqual(keys);
      for (const k of keys) expect(t[k].trim(), `${lang}.${k}`).not.toBe('');
    }
  });
});
