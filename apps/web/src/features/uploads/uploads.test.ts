// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { md5OfFile } from './md5.ts';
import { filesFromDrop, uploadProblem } from './uploads.ts';

describe('md5 in the browser', () => {
  it('hashes a file of several slices incrementally, equal to a one-shot MD5', async () => {
    const bytes = randomBytes(9 * 1024 * 1024 + 7); // three 4 MB slices, the last one short
    const seen: number[] = [];
    const md5 = await md5OfFile(new Blob([bytes]), (f) => seen.push(f));
    expect(md5).toBe(createHash('md5').update(bytes).digest('hex'));
    expect(seen).toHaveLength(3);
    expect(seen.at(-1)).toBe(1);
  });
});

/** The FileSystemEntry tree a browser hands over for a dropped folder. */
function fileEntry(name: string, text: string) {
  return { isFile: true, isDirectory: false, name, file: (ok: (f: File) => void) => ok(new File([text], name)) };
}
function dirEntry(name: string, children: unknown[]) {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      // like Chromium, hand the entries over in batches, then an empty batch
      const batches = [children.slice(0, 1), children.slice(1), []];
      return { readEntries: (ok: (e: unknown[]) => void) => ok(batches.shift() ?? []) };
    },
  };
}

describe('drag and drop', () => {
  it('walks dropped folders and keeps each file\'s path inside them', async () => {
    const entries = [fileEntry('loose.dwg', 'a'), dirEntry('Project', [fileEntry('plan.dxf', 'b'), dirEntry('details', [fileEntry('note.txt', 'c')])])];
    const dt = { items: entries.map((e) => ({ webkitGetAsEntry: () => e })), files: [] } as unknown as DataTransfer;
    const got = await filesFromDrop(dt);
    expect(got.map((f) => [f.file.name, f.relativePath])).toEqual([
      ['loose.dwg', undefined],
      ['plan.dxf', 'Project/plan.dxf'],
      ['note.txt', 'Project/details/note.txt'],
    ]);
  });
});

describe('names checked before an upload starts', () => {
  const t = ((key: string, o?: { size?: string }) => (o?.size ? `${key} ${o.size}` : key)) as never;
  const file = (name: string, size = 3) => new File([new Uint8Array(size)], name);
  it('names a file or a folder of its path the server would refuse, and passes good ones', () => {
    expect(uploadProblem({ file: file('plan.dwg') }, 100, t)).toBeNull();
    expect(uploadProblem({ file: file('plan.dwg'), relativePath: 'Project/Sub/plan.dwg' }, 100, t)).toBeNull();
    expect(uploadProblem({ file: file('CON.dwg') }, 100, t)).toBe('name.invalid: CON.dwg');
    expect(uploadProblem({ file: file('photo\u202Egnp.exe') }, 100, t)).toMatch(/^name.invalid/);
    expect(uploadProblem({ file: file('plan.dwg'), relativePath: 'Project/aux/plan.dwg' }, 100, t)).toBe('name.invalid: Project/aux/plan.dwg');
    expect(uploadProblem({ file: file('plan.dwg'), relativePath: 'Project/../plan.dwg' }, 100, t)).toMatch(/^name.invalid/);
    expect(uploadProblem({ file: file('plan.dwg', 200) }, 100, t)).toMatch(/^upload.tooLarge/);
  });
});
