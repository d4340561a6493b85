import * as c from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';

export const commonRoutes: RouteModule = async (app, { deps }) => {
  defineEndpoint(app, {
    path: '/global/v5/common/getConfParamsByType', tag: 'common', auth: 'none', summary: 'Size limits (bytes) the clients enforce; type 2 at start-up',
    request: c.confParamsRequest, response: c.confParamsResult,
    handler: async () => ({
      miniOpenFileSize: deps.config.miniOpenFileSize,
      miniUploadFileSize: deps.config.miniUploadFileSize,
      webOpenFileSize: deps.config.webOpenFileSize,
      webUploadFileSize: deps.config.webUploadFileSize,
      aiAssistant: false,
    }),
  });
  app.get('/api/health', async () => ({ ok: true }));
};
