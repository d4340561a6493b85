// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import type { Item } from './api.ts';
import { awaitingThumbnails, Thumb, thumbUrl } from './thumb.tsx';

const item = (o: Partial<Item>): Item => ({ id: 'i1', name: 'plan.dxf', type: 'dxf', fileType: 1, size: 1, version: 1, versionalias: 'V1', descp: '', modifytime: '', createtime: '', modifyTimestamp: 0, parentId: '0', uid: 'u', fileMD5: '', privateType: '1', freeze: 0, thumbkey: '', transformStatus: 3, ...o });

describe('Thumb', () => {
  it('shows the type icon without a thumbkey, the image once loaded, and the icon again when it fails', () => {
    const none = render(<Thumb item={item({})} />);
    expect(none.container.querySelector('img')).toBeNull();
    expect(none.container.querySelector('.anticon')).not.toBeNull();
    none.unmount();

    const key = `v1-${'a'.repeat(32)}.png`;
    const r = render(<Thumb item={item({ thumbkey: key })} />);
    const img = r.getByTestId('thumb-plan.dxf') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(thumbUrl(key));
    expect(r.container.querySelector('.anticon')).not.toBeNull(); // the icon stands in while it loads
    fireEvent.load(img);
    expect(r.container.querySelector('.anticon')).toBeNull();
    fireEvent.error(img);
    expect(r.container.querySelector('img')).toBeNull();
    expect(r.container.querySelector('.anticon')).not.toBeNull();
  });

  it('polls only for fresh drawings and pictures still without a thumbnail', () => {
    const now = 1_000_000;
    expect(awaitingThumbnails([item({ modifyTimestamp: now - 5000 })], now)).toBe(true);
    expect(awaitingThumbnails([item({ modifyTimestamp: now - 5000, type: 'png', name: 'a.png' })], now)).toBe(true);
    expect(awaitingThumbnails([item({ modifyTimestamp: now - 5000, thumbkey: 'v1-x.png' })], now)).toBe(false);
    expect(awaitingThumbnails([item({ modifyTimestamp: now - 120_000 })], now)).toBe(false);
    expect(awaitingThumbnails([item({ modifyTimestamp: now - 5000, type: 'txt', name: 'a.txt' })], now)).toBe(false);
    expect(awaitingThumbnails([item({ modifyTimestamp: now - 5000, type: 'folder', fileType: 0 })], now)).toBe(false);
  });
});
