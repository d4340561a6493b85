import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../app.deps.ts';
import { commonRoutes } from './common/common.routes.ts';
import { filesRoutes } from './files/files.routes.ts';
import { foldersRoutes } from './folders/folders.routes.ts';
import { trashRoutes } from './trash/trash.routes.ts';
import { uploadsRoutes } from './uploads/uploads.routes.ts';
import { downloadsRoutes } from './downloads/downloads.routes.ts';
import { usersRoutes } from './users/users.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { thumbnailsRoutes } from './thumbnails/thumbnails.routes.ts';
import { fontsRoutes } from './fonts/fonts.routes.ts';
import { drawingsRoutes } from './drawings/drawings.routes.ts';
import { sharesRoutes } from './shares/shares.routes.ts';
import { libraryRoutes } from './library/library.routes.ts';
import { groupsRoutes } from './groups/groups.routes.ts';
import { versionsRoutes } from './versions/versions.routes.ts';
import { compareRoutes } from './compare/compare.routes.ts';
import { conversionsRoutes } from './conversions/conversions.routes.ts';
import { unzipRoutes } from './unzip/unzip.routes.ts';
import { model3dRoutes } from './model3d/model3d.routes.ts';
import { membershipRoutes } from './membership/membership.routes.ts';
import { ordersRoutes } from './orders/orders.routes.ts';
import { exchangeCodesRoutes } from './exchange-codes/exchange-codes.routes.ts';
import { freezeRoutes } from './freeze/freeze.routes.ts';
import { adsRoutes } from './ads/ads.routes.ts';
import { invoicesRoutes } from './invoices/invoices.routes.ts';
import { feedbackRoutes } from './feedback/feedback.routes.ts';
import { operatorRoutes } from './operator/operator.routes.ts';

export type RouteModule = FastifyPluginAsync<{ deps: AppDeps }>;

/** Every module's routes, registered by app.ts in this order. */
export const routeModules: RouteModule[] = [commonRoutes, usersRoutes, authRoutes, filesRoutes, foldersRoutes, trashRoutes, uploadsRoutes, downloadsRoutes, drawingsRoutes, sharesRoutes, fontsRoutes, groupsRoutes, libraryRoutes, versionsRoutes, compareRoutes, conversionsRoutes, model3dRoutes, unzipRoutes, thumbnailsRoutes, membershipRoutes, ordersRoutes, exchangeCodesRoutes, freezeRoutes, adsRoutes, invoicesRoutes, feedbackRoutes, operatorRoutes];
