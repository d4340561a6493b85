// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { uploadChunked, type ChunkDeps } from './transfer.ts';
import { ApiError } from '../../lib/api.ts';

/** A fake server that stores chunks and fails the network twice in the middle. */
function fakeServer(size: number) {
  let received = 0;
  let failuresLeft = 2;
  const chunks: number[] = [];
  const deps: ChunkDeps = {
    init: async () => ({ uploadId: 'u1', chunkSize: 1000, received, item: null }),
    async putChunk(_id, offset, bytes) {
      if (offset === 2000 && failuresLeft-- > 0) {
        // the bytes arrived but the answer was lost: the server has them
        received = offset + bytes.size;
        throw new ApiError('100', 'Network Error!');
      }
      expect(offset).toBe(received);
      chunks.push(offset);
      received = offset + bytes.size;
      return { received };
    },
    complete: async () => ({ complete: received === size, item: { id: 'f', name: 'x.dwg' } }),
    sleep: async () => undefined,
  };
  return { deps, chunks };
}

describe('chunked upload', () => {
  it('continues from the offset the server reports after a network failure', async () => {
    const size = 4500;
    const { deps, chunks } = fakeServer(size);
    const seen: number[] = [];
    const item = await uploadChunked(new Blob([new Uint8Array(size)]), { parentId: '0', name: 'x.dwg', md5: 'a'.repeat(32), size }, (n) => seen.push(n), deps);
    expect(item).toEqual({ id: 'f', name: 'x.dwg' });
    // chunk 2000 was sent once and acknowledged by the retry's init, never twice
    expect(chunks).toEqual([0, 1000, 3000, 4000]);
    expect(seen.at(-1)).toBe(size);
  });

  it('does not retry a refusal from the server', async () => {
    const deps: ChunkDeps = {
      init: async () => ({ uploadId: 'u', chunkSize: 10, received: 0, item: null }),
      putChunk: async () => {
        throw new ApiError('1002002', 'Not enough space');
      },
      complete: async () => ({ complete: false, item: null }),
      sleep: async () => undefined,
    };
    await expect(uploadChunked(new Blob(['0123456789abc']), { parentId: '0', name: 'y', md5: 'b'.repeat(32), size: 13 }, () => undefined, deps)).rejects.toThrow('Not enough space');
  });

  it('returns at once when the server already has the bytes (instant upload)', async () => {
    const deps: ChunkDeps = { init: async () => ({ uploadId: null, chunkSize: 10, received: 5, item: { id: 'i' } }), putChunk: async () => { throw new Error('no'); }, complete: async () => { throw new Error('no'); }, sleep: async () => undefined };
    expect(await uploadChunked(new Blob(['12345']), { parentId: '0', name: 'z', md5: 'c'.repeat(32), size: 5 }, () => undefined, deps)).toEqual({ id: 'i' });
  });
});
