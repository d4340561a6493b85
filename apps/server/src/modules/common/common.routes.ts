import * as c from '@cadcloud/contracts';
import { z } from 'zod';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import { plainAddress } from '../../infra/http/proxy-trust.ts';
import type { RouteModule } from '../index.ts';

export const commonRoutes: RouteModule = async (app, { deps }) => {
  const assistantUrl = deps.config.aiAssistantScriptUrl;
  if (assistantUrl) app.securityHeaders.allowScriptOrigin(new URL(assistantUrl).origin);

  defineEndpoint(app, {
    path: '/global/v5/common/getConfParamsByType', tag: 'common', auth: 'none', formStyle: true,
    summary: 'Size limits (bytes) the clients enforce; type 2 at start-up; aiAssistant (AI_ASSISTANT_SCRIPT_URL set) with the script address',
    request: c.confParamsRequest, response: c.confParamsResult,
    handler: async () => ({
      miniOpenFileSize: deps.config.miniOpenFileSize,
      miniUploadFileSize: deps.config.miniUploadFileSize,
      webOpenFileSize: deps.config.webOpenFileSize,
      webUploadFileSize: deps.config.webUploadFileSize,
      aiAssistant: !!assistantUrl,
      ...(assistantUrl ? { aiAssistantScriptUrl: assistantUrl } : {}),
    }),
  });

  defineEndpoint(app, {
    path: '/global/v5/common/getRsaKey', tag: 'common', auth: 'user',
    summary: "Call style 4: this session's secret for call style 3 (bizData.aesSecretKey, base64url of 32 bytes); the same for the whole session, cached by the client",
    request: z.object({}).passthrough(), response: c.rsaKeyResult,
    handler: async (_d, { req }) => ({ aesSecretKey: await app.callSecrets.issue(req.ticket!) }),
  });

  defineEndpoint(app, {
    path: '/global/v5/common/getIpAddress', tag: 'common', auth: 'none', formStyle: true,
    summary: "The caller's address: the socket's peer, or X-Forwarded-For when that peer is one of TRUSTED_PROXIES",
    request: z.object({}).passthrough(), response: c.ipAddressResult,
    // req.ip: Fastify's trustProxy is built from TRUSTED_PROXIES only (app.ts), so a forged header from anyone else is ignored
    handler: async (_d, { req }) => ({ ip: plainAddress(req.ip) ?? '' }),
  });
  app.get('/api/health', async () => ({ ok: true }));
};
