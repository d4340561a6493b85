import * as c from '@cadcloud/contracts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { drawingFonts } from '../drawings/drawing-fonts.ts';
import { sharedConversionRunner } from './conversion-runner.ts';
import { createConversionsService } from './conversions.service.ts';

/** Conversion of the caller's own drawings (issue 17). A share recipient converts nothing of the sharer's: only own file ids are accepted. */
export const conversionsRoutes: RouteModule = async (app, { deps }) => {
  const conversions = createConversionsService(deps, sharedConversionRunner(deps), drawingFonts(deps));
  const tag = 'conversions';
  const P = c.CONVERSION_PATHS;

  defineEndpoint(app, {
    path: P.transformBatch, tag, auth: 'user',
    summary: "Convert own drawings (dwg, dxf, dws, dwt) to pdf, png, jpg, bmp or another dxf/dwg version, or own PDFs to a drawing (the targets transformTargets lists as pdfTargets: dxf; options.pages and options.stack choose the pages and whether they become layouts or stack in model space), in the background. A PDF that cannot be converted fails with the spec's message and its reason (encrypted, empty, not a PDF, only pictures). Refused: another user's or a missing id (item.notFound, nothing told about it), not a drawing, a file already converting (conversion.inProgress), a target this server cannot write, a free account past FREE_CONVERSIONS_PER_MONTH (conversion.monthlyLimit), no storage left (conversion.noSpace), a frozen account. The result appears next to the source (\"name (1).pdf\" on a clash), counted in storage",
    request: c.transformBatchRequest, response: c.transformBatchResult,
    handler: (d, { user, req }) => conversions.request(user, d, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.checkTaskStatusBatch, tag, auth: 'user',
    summary: 'Each file\'s latest conversion: transformStatus (3 never, 0 converting, 1 done, 2 failed), progress percent and stage, the result file id, the failure message. Poll every 5 s',
    request: c.checkTaskStatusBatchRequest, response: c.checkTaskStatusBatchResult,
    handler: (d, { user, req }) => conversions.statusBatch(user.id, d.fileIds, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.list, tag, auth: 'user', summary: 'The caller\'s conversions, newest first (/yun/transformer): source, target, state, times, result link, failure message',
    request: c.transformListRequest, response: c.transformListResult,
    handler: (d, { user, req }) => conversions.list(user.id, d.page, d.pageSize, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.retry, tag, auth: 'user', summary: 'Convert the source of a failed conversion again with the same target and options (the same checks and allowance as transformBatch)',
    request: c.transformRetryRequest, response: c.transformBatchResult,
    handler: (d, { user, req }) => conversions.retry(user, d.taskId, requestLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.targets, tag, auth: 'user', summary: 'What this server can convert to (the dialog offers only these), the DXF versions, and the caller\'s monthly allowance',
    request: c.emptyRequest, response: c.transformTargetsResult,
    handler: (_d, { user }) => conversions.targets(user),
  });
};
