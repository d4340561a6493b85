import { defineConfig, envBool, envInt } from '../../infra/config/config.ts';

/**
 * Limits an archive must stay within before anything is extracted (issue 18, safety). They are checked on the listing
 * (what the archive says) and, in the extraction step, again on the bytes actually written, since a header can lie.
 */
export const DEFAULT_UNZIP_LIMITS = {
  maxEntries: 20_000,
  maxTotalBytes: 2 * 1024 ** 3,
  maxRatio: 200,
} as const;

export const unzipConfig = defineConfig({
  unzipMaxEntries: { env: 'UNZIP_MAX_ENTRIES', schema: envInt(DEFAULT_UNZIP_LIMITS.maxEntries, 1, 10_000_000), doc: 'most entries (files and folders) one archive may hold to be decompressed' },
  unzipMaxTotalBytes: { env: 'UNZIP_MAX_TOTAL_BYTES', schema: envInt(DEFAULT_UNZIP_LIMITS.maxTotalBytes, 1), doc: 'most bytes one archive may unpack to, all entries together' },
  unzipMembersOnly: {
    env: 'UNZIP_MEMBERS_ONLY',
    schema: envBool(false),
    doc: 'true: only members (vip) may decompress archives in the cloud, as conversion is premium (issue 18 part 5); the spec gates nothing, so it is open to everyone by default',
  },
  unzipMaxRatio: { env: 'UNZIP_MAX_RATIO', schema: envInt(DEFAULT_UNZIP_LIMITS.maxRatio, 2, 1_000_000), doc: 'highest compression ratio (unpacked:packed) accepted, on the whole archive and on each entry of 1 MiB or more' },
});
