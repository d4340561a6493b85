import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createFilesService } from '../files/files.service.ts';

export const trashRoutes: RouteModule = async (app, { deps }) => {
  const files = createFilesService(deps);
  const tag = 'trash';
  const list = z.object({ list: z.array(c.itemSchema), total: z.number() }).passthrough();

  defineEndpoint(app, { path: '/cloud/v5/trash/folder/list', tag, auth: 'user', summary: 'Folders in the recycle bin', request: c.emptyRequest, response: list, handler: (_d, { user }) => files.trashList(user.id, 0) });
  defineEndpoint(app, { path: '/cloud/v5/trash/file/list', tag, auth: 'user', summary: 'Files in the recycle bin (kept 10 days)', request: c.emptyRequest, response: list, handler: (_d, { user }) => files.trashList(user.id, 1) });
  defineEndpoint(app, {
    path: '/cloud/v5/trash/restore', tag, auth: 'user', summary: 'Restore from the recycle bin (refused when it would exceed storage)',
    request: c.restoreRequest, response: z.object({ restored: z.number() }),
    handler: (d, { user }) => files.restore(user, d),
  });
};
