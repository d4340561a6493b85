import { defineConfig, envBool, envEnum, envOptionalString, envString } from '../config/config.ts';

export const storageConfig = defineConfig({
  storageDriver: { env: 'STORAGE_DRIVER', schema: envEnum(['fs', 's3'] as const, 'fs'), doc: 'fs (local disk) or s3' },
  s3Endpoint: { env: 'S3_ENDPOINT', schema: envOptionalString(), doc: 'S3-compatible endpoint URL' },
  s3Region: { env: 'S3_REGION', schema: envString('us-east-1'), doc: 'S3 region' },
  s3Bucket: { env: 'S3_BUCKET', schema: envOptionalString(), doc: 'S3 bucket (required with STORAGE_DRIVER=s3)' },
  s3AccessKeyId: { env: 'S3_ACCESS_KEY_ID', schema: envOptionalString(), doc: 'S3 access key' },
  s3SecretAccessKey: { env: 'S3_SECRET_ACCESS_KEY', schema: envOptionalString(), doc: 'S3 secret key' },
  s3ForcePathStyle: { env: 'S3_FORCE_PATH_STYLE', schema: envBool(true), doc: 'path-style bucket URLs' },
  storageSigningSecret: { env: 'STORAGE_SIGNING_SECRET', schema: envOptionalString(), doc: 'HMAC secret of local signed URLs (default: generated in DATA_DIR)' },
});
