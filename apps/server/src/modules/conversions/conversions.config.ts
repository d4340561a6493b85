import { defineConfig, envCountOrUnlimited, envInt } from '../../infra/config/config.ts';

/**
 * Conversion is a premium feature (spec section 6); an operator says how many conversions a free account gets a month
 * (a self-hosted company sets `unlimited` to make it free for everyone, or 0 to keep it premium only).
 */
export const conversionsConfig = defineConfig({
  freeConversionsPerMonth: {
    env: 'FREE_CONVERSIONS_PER_MONTH',
    schema: envCountOrUnlimited(5),
    doc: "conversions a free (non-member) account may request per calendar month (UTC); 'unlimited' makes conversion free, 0 premium only",
  },
  conversionTimeoutMs: { env: 'CONVERSION_TIMEOUT_MS', schema: envInt(300_000, 1000, 3_600_000), doc: 'longest one conversion may take in its worker before it fails (ms)' },
  conversionMaxHeapMb: { env: 'CONVERSION_MAX_HEAP_MB', schema: envInt(2048, 128, 65536), doc: 'heap cap of the worker thread that converts drawings (MB)' },
});
