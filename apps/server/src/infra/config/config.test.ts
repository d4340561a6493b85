import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from './index.ts';

describe('config', () => {
  it('starts on the embedded defaults', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/x' });
    expect(c).toMatchObject({ port: 8080, dataDir: '/tmp/x', databaseUrl: 'sqlite:/tmp/x/cadcloud.sqlite', storageDriver: 'fs', ssoPort: 8081 });
    expect(c.redisUrl).toBeUndefined();
    expect(c.webUploadFileSize).toBe(200 * 1024 * 1024);
  });

  it('names the variable of a wrong value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ WEB_UPLOAD_FILE_SIZE: 'huge' })).toThrow(/WEB_UPLOAD_FILE_SIZE/);
    expect(() => loadConfig({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
  });

  it('requires the S3 settings with STORAGE_DRIVER=s3, naming each', () => {
    try {
      loadConfig({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://x' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems.map((p) => p.env).sort()).toEqual(['S3_ACCESS_KEY_ID', 'S3_BUCKET', 'S3_SECRET_ACCESS_KEY']);
    }
  });

  it('reads sizes with units', () => {
    expect(loadConfig({ STORAGE_DEFAULT_QUOTA: '5GB' }).storageDefaultQuota).toBe(5 * 1024 ** 3);
  });
});
