import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PayWay } from '@cadcloud/contracts';
import { ConfigError } from '../../../infra/config/config.ts';
import { loadConfig } from '../../../infra/config/index.ts';
import { createProviderRegistry } from './registry.ts';

/** The registry puts the operator's provider behind each pay way, and refuses to start with a provider it cannot run. */
const pem = (k: import('node:crypto').KeyObject, type: 'pkcs8' | 'spki') => k.export({ format: 'pem', type }).toString();
const deps = (env: Record<string, string>) => ({ db: undefined as never, queue: undefined as never, config: loadConfig({ ...env }) });

describe('provider registry', () => {
  it('serves both pay ways with the sandbox by default', () => {
    const r = createProviderRegistry(deps({}));
    expect(r.forPayWay(PayWay.ALIPAY)?.name).toBe('sandbox');
    expect(r.forPayWay(PayWay.WECHAT)?.name).toBe('sandbox');
    expect(r.sandboxActive()).toBe(true);
  });

  it('puts the Alipay adapter behind pay way 2 when the operator configures it', () => {
    const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const r = createProviderRegistry(deps({ PAY_ALIPAY_PROVIDER: 'alipay', ALIPAY_APP_ID: '2021000000000001', ALIPAY_PRIVATE_KEY: pem(app.privateKey, 'pkcs8'), ALIPAY_PUBLIC_KEY: pem(alipay.publicKey, 'spki') }));
    expect(r.forPayWay(PayWay.ALIPAY)?.name).toBe('alipay');
    expect(r.forPayWay(PayWay.WECHAT)?.name).toBe('sandbox');
    expect(r.byName('alipay')).toBe(r.forPayWay(PayWay.ALIPAY));
  });

  it('refuses to start with a real provider chosen but no keys', () => {
    expect(() => createProviderRegistry(deps({ PAY_ALIPAY_PROVIDER: 'alipay' }))).toThrow(ConfigError);
    expect(() => createProviderRegistry(deps({ PAY_WECHAT_PROVIDER: 'wechat' }))).toThrow(ConfigError);
  });
});
