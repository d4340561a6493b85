import { PayWay } from '@cadcloud/contracts';
import type { AppDeps } from '../../../app.deps.ts';
import type { ProviderName } from '../orders.config.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { createSandboxProvider, SANDBOX, type SandboxProvider } from './sandbox.provider.ts';

export type ProviderFactory = (deps: Pick<AppDeps, 'db' | 'config' | 'queue'>) => PaymentProvider;

/**
 * Every provider this build can run, by the name the operator writes in PAY_ALIPAY_PROVIDER / PAY_WECHAT_PROVIDER
 * and the `{provider}` of `/order/v5/notify/{provider}`. An adapter plugs in with one line here.
 */
export const PROVIDER_FACTORIES: Partial<Record<ProviderName, ProviderFactory>> = {
  sandbox: createSandboxProvider,
};

/** Which provider serves each pay way (the operator's config), one instance of each per process. */
export function createProviderRegistry(deps: Pick<AppDeps, 'db' | 'config' | 'queue'>, factories: Partial<Record<ProviderName, ProviderFactory>> = PROVIDER_FACTORIES) {
  const made = new Map<string, PaymentProvider>();
  const nameOf = (payWay: number): ProviderName | undefined =>
    payWay === PayWay.ALIPAY ? deps.config.payAlipayProvider : payWay === PayWay.WECHAT ? deps.config.payWechatProvider : undefined;
  const active = () => new Set([deps.config.payAlipayProvider, deps.config.payWechatProvider]);

  function byName(name: string): PaymentProvider | undefined {
    let p = made.get(name);
    if (!p) {
      const factory = factories[name as ProviderName];
      if (!factory) return undefined;
      made.set(name, (p = factory(deps)));
    }
    return p;
  }

  return {
    nameOf,
    /** the provider serving a pay way; undefined when the operator named one this build lacks */
    forPayWay: (payWay: number) => {
      const n = nameOf(payWay);
      return n ? byName(n) : undefined;
    },
    /**
     * A provider by name, for notifications and an order's later queries: also one no pay way uses any more (the
     * operator switched), so the orders it started still complete.
     */
    byName,
    /** Whether some pay way uses the sandbox now: its pay page and payer actions exist only then. */
    sandboxActive: () => active().has(SANDBOX),
    sandbox: () => byName(SANDBOX) as SandboxProvider,
  };
}

export type ProviderRegistry = ReturnType<typeof createProviderRegistry>;
