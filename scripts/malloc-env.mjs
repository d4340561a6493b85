// glibc's allocator kept what an upload storm freed (issue 14 item 13: hundreds of MB for good): every thread that
// allocates (worker threads rendering thumbnails and scenes, the libuv pool) got an arena of its own, and after the
// first large buffer was freed its sliding mmap threshold put later large buffers (chunks, blobs read for thumbnails)
// on the heap, where freeing them fragments it instead of returning them. Two arenas and fixed thresholds (large
// buffers mapped and unmapped, the heap's free top returned) cost nothing measurable here. `npm start` and
// `npm run dev` set them; keep in step with apps/server/src/test/server-process.ts; an operator's own values win.
export const mallocEnv = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
