import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { TYPE_GROUPS } from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createFilesService } from '../files/files.service.ts';
import { checkName } from '../files/item-names.ts';

export const foldersRoutes: RouteModule = async (app, { deps }) => {
  const files = createFilesService(deps);
  const tag = 'folders';

  defineEndpoint(app, {
    path: '/cloud/v5/folder/edit', tag, auth: 'user', summary: 'Create a folder (no folderId: in parentId) or rename one',
    request: c.folderEditRequest, response: c.itemSchema,
    handler: (d, { user }) =>
      d.folderId ? files.editFolder(user, { folderId: d.folderId, name: d.name, descp: d.descp, autorename: d.autorename }) : files.createFolder(user, { parentId: d.parentId, name: d.name ?? '', autorename: d.autorename, descp: d.descp }),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/folder/list', tag, auth: 'user', summary: 'Sub-folders of a folder with their item counts',
    request: c.folderListRequest, response: z.object({ subFolders: z.array(z.object({ id: z.string(), name: z.string(), parentId: z.string(), count: z.number() }).passthrough()), count: z.number() }).passthrough(),
    handler: (d, { user }) => files.folderList(user.id, d.parentId, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/folder/getParentFolderPath', tag, auth: 'user', summary: 'Breadcrumb from the root to the folder',
    request: c.folderIdRequest, response: z.object({ list: z.array(z.object({ id: z.string(), name: z.string(), parentId: z.string() })) }),
    handler: (d, { user }) => files.parentPath(user.id, d.folderId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/folder/capacity', tag, auth: 'user', summary: 'Used and total storage, freeze state',
    request: z.object({ language: z.string().optional(), clientVersion: z.string().optional(), ver: z.any().optional() }), response: c.capacityResult,
    handler: (_d, { user }) => files.capacity(user.id),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/folder/detectUpload', tag, auth: 'user', summary: 'Before a folder upload: is there a same-name folder here?',
    request: c.folderDetectUploadRequest, response: z.object({ hasRepeat: z.boolean(), folderId: z.string().nullable() }),
    handler: async (d, { user }) => {
      await files.requireFolder(user.id, d.parentId);
      const existing = await files.repo.findByName(user.id, d.parentId, checkName(d.name), 0);
      return { hasRepeat: !!existing, folderId: existing?.id ?? null };
    },
  });
  defineEndpoint(app, {
    path: '/cloud/v5/folder/getUploadFileType', tag, auth: 'user', summary: 'Extensions a folder upload accepts, by group',
    request: c.uploadFileTypeRequest, response: z.object({ types: z.array(z.string()), groups: z.record(z.string(), z.array(z.string())) }),
    handler: async () => ({ types: Object.values(TYPE_GROUPS).flat(), groups: Object.fromEntries(Object.entries(TYPE_GROUPS).map(([k, v]) => [k, [...v]])) }),
  });
};
