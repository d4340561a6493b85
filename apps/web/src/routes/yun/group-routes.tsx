import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';

// the group pages' code is loaded when one is shown (see lib/lazy-page.tsx)
const Groups = lazyPage(() => import('./Groups.tsx'), 'Groups');
const GroupJoin = lazyPage(() => import('../../features/groups/GroupJoin.tsx'), 'GroupJoin');
const GroupViewPage = lazyPage(() => import('../../features/groups/GroupViewPage.tsx'), 'GroupViewPage');

/** Children of the /yun and /webH5 shells: the group page and the invitation link. */
export const groupShellRoutes: RouteObject[] = [
  { path: 'group', element: <Groups /> },
  { path: 'group/join/:token', element: <GroupJoin /> },
];
/** Full-window viewer of a group's shared drawing (signed in, outside the shells). */
export const groupViewRoutes: RouteObject[] = [
  { path: '/yun/group/:groupId/view/:shareId/:fileId', element: <GroupViewPage /> },
  { path: '/webH5/group/:groupId/view/:shareId/:fileId', element: <GroupViewPage /> },
];
