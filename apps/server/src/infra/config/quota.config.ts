import { defineConfig, envBytes } from './config.ts';

const MB = 1024 * 1024;
/** The spec's size limits (section 3 config values) and the storage a new account gets. */
export const quotaConfig = defineConfig({
  storageDefaultQuota: { env: 'STORAGE_DEFAULT_QUOTA', schema: envBytes(500 * MB), doc: 'storage of a new account' },
  webUploadFileSize: { env: 'WEB_UPLOAD_FILE_SIZE', schema: envBytes(200 * MB), doc: 'largest upload from the web app' },
  webOpenFileSize: { env: 'WEB_OPEN_FILE_SIZE', schema: envBytes(100 * MB), doc: 'largest drawing the web viewer opens' },
  miniUploadFileSize: { env: 'MINI_UPLOAD_FILE_SIZE', schema: envBytes(50 * MB), doc: 'largest upload from the mini client' },
  miniOpenFileSize: { env: 'MINI_OPEN_FILE_SIZE', schema: envBytes(30 * MB), doc: 'largest drawing the mini client opens' },
});
