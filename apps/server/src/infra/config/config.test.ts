import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadConfig, ConfigError } from './index.ts';

describe('config', () => {
  it('starts on the embedded defaults', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/x' });
    expect(c).toMatchObject({ port: 8080, dataDir: '/tmp/x', databaseUrl: 'sqlite:/tmp/x/cadcloud.sqlite', storageDriver: 'fs', ssoPort: 8081 });
    expect(c.redisUrl).toBeUndefined();
    expect(c.webUploadFileSize).toBe(200 * 1024 * 1024);
  });

  it('names the variable of a wrong value', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems.map((p) => p.env);
      }
      throw new Error('expected a ConfigError');
    };
    expect(problemsOf({ REDIS_URL: 'localhost:6379' })).toEqual(['REDIS_URL']);
    expect(problemsOf({ SMTP_URL: 'mail.example.com' })).toEqual(['SMTP_URL']);
    // every wrong variable at once, so one restart fixes them all
    expect(problemsOf({ S3_FORCE_PATH_STYLE: 'yes', MINI_OPEN_FILE_SIZE: '-1' }).sort()).toEqual(['MINI_OPEN_FILE_SIZE', 'S3_FORCE_PATH_STYLE']);
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

  it('resolves DATA_DIR and the default SQLite file at load', () => {
    const c = loadConfig({ DATA_DIR: 'rel/data' });
    expect(c.dataDir).toBe(path.resolve('rel/data'));
    expect(c.databaseUrl).toBe(`sqlite:${path.resolve('rel/data', 'cadcloud.sqlite')}`);
  });

  it('accepts postgres:// and postgresql:// database URLs and a Redis URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).databaseUrl).toBe('postgresql://u@h/db');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h:6379' })).toMatchObject({ databaseUrl: 'postgres://u@h/db', redisUrl: 'redis://h:6379' });
  });

  it('takes S3 without an endpoint (AWS) once bucket and keys are set', () => {
    const c = loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_FORCE_PATH_STYLE: 'false' });
    expect(c).toMatchObject({ storageDriver: 's3', s3Bucket: 'b', s3Endpoint: undefined, s3Region: 'us-east-1', s3ForcePathStyle: false });
  });

  it('has the spec size defaults', () => {
    const MB = 1024 * 1024;
    expect(loadConfig({})).toMatchObject({ storageDefaultQuota: 500 * MB, webUploadFileSize: 200 * MB, webOpenFileSize: 100 * MB, miniUploadFileSize: 50 * MB, miniOpenFileSize: 30 * MB });
    expect(loadConfig({ WEB_OPEN_FILE_SIZE: '1048576' }).webOpenFileSize).toBe(MB);
  });
});
