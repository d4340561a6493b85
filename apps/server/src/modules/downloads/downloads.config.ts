import { defineConfig, envInt } from '../../infra/config/config.ts';

/** Download links (download-links.ts): how long one may be started, and how long an S3 redirect target lives. */
export const downloadsConfig = defineConfig({
  downloadLinkTtlSeconds: { env: 'DOWNLOAD_LINK_TTL_SECONDS', schema: envInt(300, 10, 86_400), doc: 'a download link can be started this long after it was handed out (its grant is checked again on every use)' },
  downloadRedirectTtlSeconds: { env: 'DOWNLOAD_REDIRECT_TTL_SECONDS', schema: envInt(60, 5, 3600), doc: 'S3 driver: life of the presigned URL a checked download link redirects to (cannot be revoked once handed out)' },
});
