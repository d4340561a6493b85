import * as c from '@cadcloud/contracts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createModel3dService } from './model3d.service.ts';

/** 3D models (issue 21): the spec's four calls and our list; only the caller's own file ids, but shareStatus3D's share token. */
export const model3dRoutes: RouteModule = async (app, { deps }) => {
  const model3d = createModel3dService(deps);
  model3d.registerGrants();
  const tag = 'model3d';
  const P = c.MODEL3D_PATHS;

  defineEndpoint(app, {
    path: P.transformBatch3D, tag, auth: 'user',
    summary: "Convert own 3D files (STEP/STP, IGES/IGS, BREP, IFC, 3DM, OBJ, STL, PLY, OFF, 3MF, FBX, DAE, 3DS, glTF/GLB) to a GLB in the background, one job per file. Files converted already are not converted again (allDone: open the viewer). isTransForm false only answers the statuses. Refused: another user's or a missing id (item.notFound), not a 3D model (model3d.notModel), a Revit .rvt (model3d.revit: export IFC from Revit), a file already converting (model3d.converting), an account without super membership past its FREE_3D_TRIALS (model3d.trialsUsed)",
    request: c.transformBatch3DRequest, response: c.transformBatch3DResult,
    handler: (d, { user, req }) => model3d.transformBatch(user, d, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.checkTransformSuplus3D, tag, auth: 'user',
    summary: 'The 3D conversions the caller has left: null for super members or when the operator made 3D conversion free; failed conversions spend none',
    request: c.checkTransformSuplus3DRequest, response: c.checkTransformSuplus3DResult,
    handler: (_d, { user }) => model3d.remaining(user),
  });
  defineEndpoint(app, {
    path: P.checkTaskStatus3D, tag, auth: 'user',
    summary: "A file's latest 3D conversion: transformStatus (3 never, 0 converting, 1 done, 2 failed), progress and stage, the failure message, and once done the GLB's signed link (checked on use: the file still the caller's with the same bytes) and the model's numbers",
    request: c.checkTaskStatus3DRequest, response: c.model3dStatusSchema,
    handler: async (d, { user, req }) => (await model3d.statusBatch(user.id, [d.fileId], requestLanguage(req))).list[0],
  });
  defineEndpoint(app, {
    path: P.revitInfo3D, tag, auth: 'user',
    summary: "What the caller's own Revit .rvt tells without a reader of its geometry: the Revit version and build, the project's title, its save paths and other metadata lines, and the advice to export IFC from Revit (its embedded preview is the file's thumbnail). Refused: another user's or a missing id (item.notFound), not an .rvt (model3d.notModel), not readable as one (model3d.openFailed), above REVIT_MAX_READ_MB (model3d.tooLarge)",
    request: c.revitInfo3DRequest, response: c.revitInfo3DResult,
    handler: (d, { user, req }) => model3d.revitInfo(user.id, d.fileId, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.checkTaskStatusBatch3D, tag, auth: 'user',
    summary: 'checkTaskStatus3D for many files at once. Poll every 5 s',
    request: c.checkTaskStatusBatch3DRequest, response: c.checkTaskStatusBatch3DResult,
    handler: (d, { user, req }) => model3d.statusBatch(user.id, d.fileIds, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.shareStatus3D, tag, auth: 'none',
    summary: "A shared 3D file's conversion for whoever holds the share token (body or x-share-token header; a group share's token only with its member's session): the sharer's latest conversion of it, and once converted the GLB's signed link through the share (checked on use: a cancelled or expired share, a file taken out of it or changed ends it). The recipient converts nothing: never converted answers 3. Outside the share: item.notFound",
    request: c.shareStatus3DRequest, response: c.model3dStatusSchema,
    handler: (d, { user, req }) => {
      const h = req.headers['x-share-token'];
      return model3d.sharedStatus(d.shareToken || (typeof h === 'string' && h ? h : undefined), d.fileId, user?.id, requestLanguage(req));
    },
  });
  defineEndpoint(app, {
    path: P.list3D, tag, auth: 'user',
    summary: "The caller's own 3D conversions for the task panel's 3D tab: the latest of each source file, newest first, with state, progress and stage, the failure message, times, and whether the source is still there with the converted bytes (fileExists: open it at /view3d?key={fileId}, or convert it again with transformBatch3D). Poll every 5 s while one converts. Never another user's",
    request: c.list3DRequest, response: c.list3DResult,
    handler: (d, { user, req }) => model3d.list(user.id, d.page, d.pageSize, requestLanguage(req)),
  });
};
