// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { planUploads, type ConflictAsk } from './ConflictDialog.tsx';
import { uploadMultipart } from './transfer.ts';

const f = (name: string, relativePath?: string) => ({ name, relativePath, file: new Blob([name]) });

describe('same-name files before an upload', () => {
  it('asks only about files whose name is a file in the folder, and honours each answer', async () => {
    const asked: [string, number, number][] = [];
    const answers = ['version', 'skip', 'rename'] as const;
    const ask: ConflictAsk = async (name, i, total) => {
      asked.push([name, i, total]);
      return { choice: answers[i - 1], all: false };
    };
    const got = await planUploads([f('a.dxf'), f('new.dxf'), f('b.dxf'), f('c.dxf'), f('a.dxf', 'Dir/a.dxf')], new Set(['a.dxf', 'b.dxf', 'c.dxf']), ask);
    expect(asked).toEqual([['a.dxf', 1, 3], ['b.dxf', 2, 3], ['c.dxf', 3, 3]]);
    // b skipped; a inside a dropped folder is not a clash here; no field for files without a clash
    expect(got.map((x) => [x.relativePath ?? x.name, x.conflict])).toEqual([['a.dxf', 'version'], ['new.dxf', undefined], ['c.dxf', 'rename'], ['Dir/a.dxf', undefined]]);
  });

  it('"apply to all" answers the remaining clashes without asking again', async () => {
    const ask = vi.fn<ConflictAsk>(async () => ({ choice: 'version', all: true }));
    const got = await planUploads([f('a.dxf'), f('b.dxf'), f('c.dxf')], new Set(['a.dxf', 'b.dxf', 'c.dxf']), ask);
    expect(ask).toHaveBeenCalledTimes(1);
    expect(got.map((x) => x.conflict)).toEqual(['version', 'version', 'version']);
    const skipAll = await planUploads([f('a.dxf'), f('x.dxf'), f('b.dxf')], new Set(['a.dxf', 'b.dxf']), async () => ({ choice: 'skip', all: true }));
    expect(skipAll.map((x) => x.name)).toEqual(['x.dxf']);
  });

  it('without clashes nothing is asked', async () => {
    const ask = vi.fn<ConflictAsk>();
    expect((await planUploads([f('a.dxf')], new Set(['b.dxf']), ask)).map((x) => x.conflict)).toEqual([undefined]);
    expect(ask).not.toHaveBeenCalled();
  });
});

describe('multipart upload form', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('sends the conflict field before the file part, and no field by default', async () => {
    const sent: FormData[] = [];
    class FakeXhr {
      upload = { onprogress: null };
      responseText = JSON.stringify({ rtnCode: '0000000', bizData: { id: 'x' } });
      onload: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      send(form: FormData) {
        sent.push(form);
        setTimeout(() => this.onload?.(), 0);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const target = { parentId: '0', name: 'a.dxf', md5: 'a'.repeat(32), size: 1 };
    await uploadMultipart(new Blob(['x']), { ...target, conflict: 'version' }, () => undefined);
    await uploadMultipart(new Blob(['x']), target, () => undefined);
    const keys = (fd: FormData) => [...fd.keys()];
    expect(keys(sent[0])).toEqual(['parentId', 'md5', 'size', 'conflict', 'filedata']);
    expect(sent[0].get('conflict')).toBe('version');
    expect(keys(sent[1])).not.toContain('conflict');
  });
});
