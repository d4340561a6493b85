import type { AppConfig } from '../../infra/config/index.ts';
import { persistentSecret } from '../../infra/storage/storage.factory.ts';

export const DEFAULT_CLIENT_ID = 'cadcloud-web';

/** The product as an OpenID Connect client of the login site (built-in by default, any provider by config). */
export function relyingParty(config: AppConfig) {
  return {
    issuer: config.ssoIssuer,
    clientId: config.ssoClientId ?? DEFAULT_CLIENT_ID,
    clientSecret: config.ssoClientSecret ?? persistentSecret(config.dataDir, 'sso-client'),
    redirectUri: `${config.publicUrl}/api/auth/callback`,
    postLogoutRedirectUri: `${config.publicUrl}/`,
  };
}
