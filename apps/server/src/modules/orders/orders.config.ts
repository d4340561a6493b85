import { defineConfig, envEnum, envInt } from '../../infra/config/config.ts';

/** Provider names an operator may put behind a pay way; the adapters register their factories under these names (providers/registry.ts). */
export const PROVIDER_NAMES = ['sandbox', 'alipay', 'wechat'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/**
 * Orders and payments (issue 22 part 3). Each pay way (spec section 9: 2 Alipay-type, 3 WeChat-type) is served by a
 * provider the operator picks; the built-in sandbox until they configure a real provider's keys.
 */
export const ordersConfig = defineConfig({
  payAlipayProvider: { env: 'PAY_ALIPAY_PROVIDER', schema: envEnum(PROVIDER_NAMES, 'sandbox'), doc: 'the provider serving pay way 2 (Alipay-type): sandbox (default, no real money), alipay or wechat' },
  payWechatProvider: { env: 'PAY_WECHAT_PROVIDER', schema: envEnum(PROVIDER_NAMES, 'sandbox'), doc: 'the provider serving pay way 3 (WeChat-type): sandbox (default, no real money), wechat or alipay' },
  orderPayMinutes: { env: 'ORDER_PAY_MINUTES', schema: envInt(30, 1, 7 * 24 * 60), doc: 'an unpaid order times out (status 7) this many minutes after it was made (default 30)' },
  orderQuerySeconds: { env: 'ORDER_QUERY_SECONDS', schema: envInt(5, 0, 3600), doc: "the pay dialog's status poll asks the provider about an unpaid order at most this often (default 5 s)" },
});
