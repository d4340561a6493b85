import type { RouteObject } from 'react-router';
import { useLocation, useParams } from 'react-router';
import type { ShareVariant } from './SharePage.tsx';
import { lazyPage } from '../../lib/lazy-page.tsx';

// the share pages' code is loaded when one is shown (see lib/lazy-page.tsx)
const SharePage = lazyPage(() => import('./SharePage.tsx'), 'SharePage');
const ShareViewPage = lazyPage(() => import('./ShareViewPage.tsx'), 'ShareViewPage');
const ShareEntry = lazyPage(() => import('./ShareEntry.tsx'), 'ShareEntry');

/** The share's own address, whichever of its views is open: everything before `/view/{fileId}`. */
function baseOf(pathname: string) {
  return pathname.replace(/\/view\/[^/]+\/?$/, '').replace(/\/$/, '');
}

function ShareRoute({ variant }: { variant: ShareVariant }) {
  const { rand } = useParams();
  const { pathname } = useLocation();
  return <SharePage key={rand} rand={rand!} base={baseOf(pathname)} variant={variant} />;
}

function ShareViewRoute() {
  const { rand, fileId } = useParams();
  const { pathname } = useLocation();
  return <ShareViewPage key={`${rand}/${fileId}`} rand={rand!} fileId={fileId!} base={baseOf(pathname)} />;
}

/**
 * Public share routes (spec section 2), outside the signed-in wrapper: a visitor can open them. Each has a
 * `/view/{fileId}` child address for the viewer in share mode.
 */
export const shareRoutes: RouteObject[] = [
  { path: '/share/:rand', element: <ShareRoute variant="desktop" /> },
  { path: '/share/:rand/view/:fileId', element: <ShareViewRoute /> },
  { path: '/easyShare/:rand', element: <ShareRoute variant="simple" /> },
  { path: '/easyShare/:rand/view/:fileId', element: <ShareViewRoute /> },
  { path: '/webH5/share', element: <ShareEntry /> },
  { path: '/webH5/share/:shareId/:rand', element: <ShareRoute variant="phone" /> },
  { path: '/webH5/share/:shareId/:rand/view/:fileId', element: <ShareViewRoute /> },
  { path: '/webH5/simple', element: <ShareEntry /> },
  { path: '/webH5/simple/:rand', element: <ShareRoute variant="simple" /> },
  { path: '/webH5/simple/:rand/view/:fileId', element: <ShareViewRoute /> },
];
