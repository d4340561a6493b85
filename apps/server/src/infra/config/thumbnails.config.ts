import { defineConfig, envBytes, envInt } from './config.ts';

const MB = 1024 * 1024;
/** Limits of the thumbnail job (modules/thumbnails): what it refuses to open, and how long and how much memory a drawing may take. */
export const thumbnailsConfig = defineConfig({
  thumbnailMaxDrawingSize: { env: 'THUMBNAIL_MAX_DRAWING_SIZE', schema: envBytes(50 * MB), doc: 'drawings larger than this get no thumbnail' },
  thumbnailMaxPictureSize: { env: 'THUMBNAIL_MAX_PICTURE_SIZE', schema: envBytes(50 * MB), doc: 'pictures larger than this get no thumbnail' },
  thumbnailTimeoutMs: { env: 'THUMBNAIL_TIMEOUT_MS', schema: envInt(120_000, 1000), doc: 'a drawing that takes longer to render is tried once more, then gets no thumbnail' },
  thumbnailMemoryMb: { env: 'THUMBNAIL_MEMORY_MB', schema: envInt(768, 64), doc: 'heap of the worker thread that renders one drawing' },
});
