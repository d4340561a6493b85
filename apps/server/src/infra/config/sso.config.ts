import { defineConfig, envInt, envOptionalString } from './config.ts';

/** The built-in login site (apps/sso) and the product as its OpenID Connect relying party. */
export const ssoConfig = defineConfig({
  ssoPort: { env: 'SSO_PORT', schema: envInt(0, 0, 65535), doc: 'port of the login site (0 = PORT+1)' },
  ssoIssuer: { env: 'SSO_ISSUER', schema: envOptionalString(), doc: 'issuer URL of the OpenID provider (default the built-in one)' },
  ssoClientId: { env: 'SSO_CLIENT_ID', schema: envOptionalString(), doc: 'client id at the provider (default cadcloud-web)' },
  ssoClientSecret: { env: 'SSO_CLIENT_SECRET', schema: envOptionalString(), doc: 'client secret (default generated in DATA_DIR)' },
});
