import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../infra/config/index.ts';

describe('unzip limits config', () => {
  it('has the defaults of issue 18 and takes the operator settings', () => {
    const defaults = loadConfig({ DATA_DIR: '/tmp/x' });
    expect([defaults.unzipMaxEntries, defaults.unzipMaxTotalBytes, defaults.unzipMaxRatio]).toEqual([20_000, 2 * 1024 ** 3, 200]);
    const set = loadConfig({ DATA_DIR: '/tmp/x', UNZIP_MAX_ENTRIES: '500', UNZIP_MAX_TOTAL_BYTES: '1000000', UNZIP_MAX_RATIO: '50' });
    expect([set.unzipMaxEntries, set.unzipMaxTotalBytes, set.unzipMaxRatio]).toEqual([500, 1_000_000, 50]);
  });

  it('opens decompression to everyone by default; UNZIP_MEMBERS_ONLY=true keeps it for members', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/x' }).unzipMembersOnly).toBe(false);
    expect(loadConfig({ DATA_DIR: '/tmp/x', UNZIP_MEMBERS_ONLY: 'true' }).unzipMembersOnly).toBe(true);
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', UNZIP_MEMBERS_ONLY: 'members' })).toThrow(/UNZIP_MEMBERS_ONLY/);
  });

  it('refuses a value that is not a whole number, naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', UNZIP_MAX_RATIO: 'lots' })).toThrow(/UNZIP_MAX_RATIO/);
  });
});
