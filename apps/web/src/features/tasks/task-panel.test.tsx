// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { firstNonEmptyTab } from './TaskPanel.tsx';

describe('task panel', () => {
  it('opens on the first non-empty tab', () => {
    expect(firstNonEmptyTab({ upload: 0, download: 2, unzip: 1 })).toBe('download');
    expect(firstNonEmptyTab({ upload: 1, download: 2, unzip: 0 })).toBe('upload');
    expect(firstNonEmptyTab({ upload: 0, download: 0, unzip: 3 })).toBe('unzip');
    expect(firstNonEmptyTab({ upload: 0, download: 0, unzip: 0 })).toBe('upload');
  });
});
