import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createFilesService } from './files.service.ts';
import { createListCache } from './list-cache.ts';
import { deleteWithFonts } from '../fonts/fonts.service.ts';

export const filesRoutes: RouteModule = async (app, { deps }) => {
  const files = createFilesService(deps);
  const lists = createListCache();
  const tag = 'files';

  defineEndpoint(app, {
    path: '/cloud/v5/union/list', tag, auth: 'user', summary: 'Folders then files of a folder; q searches names, isGlobal across all folders',
    request: c.unionListRequest, response: c.listResult,
    handler: (d, { user }) => lists.answer(user, 'union/list', d, () => files.unionList(user.id, d)),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/list', tag, auth: 'user', summary: 'Files of a folder (or all files), optionally by type',
    request: c.fileListRequest, response: c.listResult,
    handler: (d, { user }) => files.listTypeFiles(user.id, { pageNo: d.page, pageSize: d.pageSize, includeTypes: d.includeTypes, folderId: d.folderId, sort: d.sort, desc: d.desc }),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/listTypeFiles', tag, auth: 'user', summary: 'Files by type group (drawing, image, document, threeD, archive, font) or extension, newest first',
    request: c.listTypeFilesRequest, response: c.listResult,
    handler: (d, { user }) => lists.answer(user, 'listTypeFiles', d, () => files.listTypeFiles(user.id, d)),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/getFileInfo', tag, auth: 'user', summary: 'One file',
    request: c.fileIdRequest, response: c.itemSchema,
    handler: (d, { user }) => files.getFileInfo(user.id, d.fileId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/edit', tag, auth: 'user', summary: 'Rename a file or edit its description',
    request: c.fileEditRequest, response: c.itemSchema,
    handler: (d, { user }) => files.editFile(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/union/move', tag, auth: 'user', summary: 'Move files and folders into a folder',
    request: c.moveRequest, response: z.object({ list: z.array(c.itemSchema) }),
    handler: (d, { user }) => files.move(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/union/delete', tag, auth: 'user', summary: 'deleteLevel 0 to the recycle bin, 1 permanently, 2 empty the recycle bin (fontIds: the font library, see fonts.service)',
    request: c.deleteRequest, response: z.object({ deleted: z.number() }),
    handler: (d, { user }) => deleteWithFonts(deps, user, d, () => files.delete(user, d)),
  });
};
