import { readFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, defineConfig, type ConfigValues, envOptionalString, envString } from '../../../infra/config/config.ts';

/**
 * The operator's settings of the real payment providers (issue 22 part 3). Nothing here is set by default: the
 * built-in sandbox serves every pay way until the operator gives a provider's ids and keys. Keys are a file path or
 * the key itself (PEM, or the bare base64 that Alipay's key tool and WeChat's merchant platform hand out), so they
 * can come from a secret store through the environment without a file.
 */
const url = (def: string) => envString(def).pipe(z.url({ message: 'must be an absolute URL' }));
const optionalUrl = () => envOptionalString().pipe(z.url({ message: 'must be an absolute URL' }).optional());

export const providersConfig = defineConfig({
  alipayAppId: { env: 'ALIPAY_APP_ID', schema: envOptionalString(), doc: 'Alipay open-platform app id; setting it (with the two keys) turns the Alipay adapter on' },
  alipayPrivateKey: { env: 'ALIPAY_PRIVATE_KEY', schema: envOptionalString(), doc: "the app's RSA2 private key: a file path, PEM, or bare base64 (PKCS#1 or PKCS#8)" },
  alipayPublicKey: { env: 'ALIPAY_PUBLIC_KEY', schema: envOptionalString(), doc: "Alipay's public key (public-key mode): a file path, PEM, or bare base64" },
  alipayGateway: { env: 'ALIPAY_GATEWAY', schema: url('https://openapi.alipay.com/gateway.do'), doc: "Alipay's gateway (the sandbox is https://openapi-sandbox.dl.alipaydev.com/gateway.do)" },
  alipayNotifyUrlBase: { env: 'ALIPAY_NOTIFY_URL_BASE', schema: optionalUrl(), doc: 'public base URL Alipay posts notifications to (default PUBLIC_URL)' },

  wechatMchId: { env: 'WECHAT_PAY_MCHID', schema: envOptionalString(), doc: 'WeChat Pay merchant id; setting it (with the rest) turns the WeChat Pay adapter on' },
  wechatAppId: { env: 'WECHAT_PAY_APPID', schema: envOptionalString(), doc: 'the app id bound to the merchant (official account / website app)' },
  wechatMerchantSerial: { env: 'WECHAT_PAY_MERCHANT_SERIAL', schema: envOptionalString(), doc: "serial number of the merchant's API certificate" },
  wechatPrivateKey: { env: 'WECHAT_PAY_PRIVATE_KEY', schema: envOptionalString(), doc: "the merchant's API private key (apiclient_key.pem): a file path or PEM" },
  wechatPublicKeyId: { env: 'WECHAT_PAY_PUBLIC_KEY_ID', schema: envOptionalString(), doc: "id of WeChat Pay's public key (PUB_KEY_ID_…), public-key mode" },
  wechatPublicKey: { env: 'WECHAT_PAY_PUBLIC_KEY', schema: envOptionalString(), doc: "WeChat Pay's public key (pub_key.pem): a file path, PEM, or bare base64" },
  wechatApiV3Key: { env: 'WECHAT_PAY_APIV3_KEY', schema: envOptionalString(), doc: 'the 32-character APIv3 key that encrypts notifications' },
  wechatGateway: { env: 'WECHAT_PAY_GATEWAY', schema: url('https://api.mch.weixin.qq.com/'), doc: "WeChat Pay's API base URL" },
  wechatNotifyUrlBase: { env: 'WECHAT_PAY_NOTIFY_URL_BASE', schema: optionalUrl(), doc: 'public https base URL WeChat Pay posts notifications to (default PUBLIC_URL)' },
});

type ProviderEnv = ConfigValues<typeof providersConfig>;

export interface AlipayOptions {
  appId: string;
  /** PKCS#8 PEM */
  privateKeyPem: string;
  /** SPKI PEM */
  alipayPublicKeyPem: string;
  gateway: string;
  /** absent: the order's public base URL */
  notifyUrlBase?: string;
}

export interface WechatOptions {
  mchId: string;
  appId: string;
  merchantSerial: string;
  privateKey: KeyObject;
  publicKeyId: string;
  publicKey: KeyObject;
  apiV3Key: string;
  gateway: string;
  notifyUrlBase?: string;
}

/** A file path, a PEM, or bare base64 DER → the key's text. */
function keyText(value: string): string {
  const v = value.trim();
  if (v.includes('-----BEGIN')) return v;
  if (/^[A-Za-z0-9+/=\s]+$/.test(v) && v.length > 200) return v;
  return readFileSync(v, 'utf8').trim();
}

/** Reads any of the shapes operators are handed (PEM PKCS#1/PKCS#8, bare base64 of either) into one key object. */
export function loadPrivateKey(value: string): KeyObject {
  const text = keyText(value);
  if (text.includes('-----BEGIN')) return createPrivateKey(text);
  const der = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  }
}

export function loadPublicKey(value: string): KeyObject {
  const text = keyText(value);
  if (text.includes('-----BEGIN')) return createPublicKey(text);
  return createPublicKey({ key: Buffer.from(text.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
}

/** Either every named setting or none: a half-configured provider stops start-up rather than failing at the first payment. */
function allOrNone<K extends keyof ProviderEnv>(env: ProviderEnv, keys: K[]): boolean {
  const missing = keys.filter((k) => !env[k]);
  if (missing.length === keys.length) return false;
  if (missing.length) throw new ConfigError(missing.map((k) => ({ env: providersConfig[k].env, message: `required once ${keys.filter((x) => env[x]).map((x) => providersConfig[x].env).join(', ')} is set` })));
  return true;
}

function readKeys<T>(envName: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new ConfigError([{ env: envName, message: `cannot read the key: ${(e as Error).message}` }]);
  }
}

/** The Alipay adapter's options, or null while the operator has not configured Alipay. */
export function alipayOptionsFrom(env: ProviderEnv): AlipayOptions | null {
  if (!allOrNone(env, ['alipayAppId', 'alipayPrivateKey', 'alipayPublicKey'])) return null;
  return {
    appId: env.alipayAppId!,
    privateKeyPem: readKeys('ALIPAY_PRIVATE_KEY', () => loadPrivateKey(env.alipayPrivateKey!).export({ format: 'pem', type: 'pkcs8' }).toString()),
    alipayPublicKeyPem: readKeys('ALIPAY_PUBLIC_KEY', () => loadPublicKey(env.alipayPublicKey!).export({ format: 'pem', type: 'spki' }).toString()),
    gateway: env.alipayGateway,
    notifyUrlBase: env.alipayNotifyUrlBase,
  };
}

/** The WeChat Pay adapter's options, or null while the operator has not configured WeChat Pay. */
export function wechatOptionsFrom(env: ProviderEnv): WechatOptions | null {
  const keys = ['wechatMchId', 'wechatAppId', 'wechatMerchantSerial', 'wechatPrivateKey', 'wechatPublicKeyId', 'wechatPublicKey', 'wechatApiV3Key'] as const;
  if (!allOrNone(env, [...keys])) return null;
  if (Buffer.byteLength(env.wechatApiV3Key!) !== 32) throw new ConfigError([{ env: 'WECHAT_PAY_APIV3_KEY', message: 'must be 32 bytes' }]);
  return {
    mchId: env.wechatMchId!,
    appId: env.wechatAppId!,
    merchantSerial: env.wechatMerchantSerial!,
    privateKey: readKeys('WECHAT_PAY_PRIVATE_KEY', () => loadPrivateKey(env.wechatPrivateKey!)),
    publicKeyId: env.wechatPublicKeyId!,
    publicKey: readKeys('WECHAT_PAY_PUBLIC_KEY', () => loadPublicKey(env.wechatPublicKey!)),
    apiV3Key: env.wechatApiV3Key!,
    gateway: env.wechatGateway,
    notifyUrlBase: env.wechatNotifyUrlBase,
  };
}
