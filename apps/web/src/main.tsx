import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useSearchParams } from 'react-router';
import { App as AntApp, ConfigProvider } from 'antd';
import { useTranslation } from 'react-i18next';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import koKR from 'antd/locale/ko_KR';
import deDE from 'antd/locale/de_DE';
import './lib/i18n.ts';
import { reshapeWhenFontsLoad } from './lib/fonts.ts';
import './styles.css';
import { UserProvider } from './features/auth/user.tsx';
import { lazyPage } from './lib/lazy-page.tsx';
import { groupShellRoutes, groupViewRoutes } from './routes/yun/group-routes.tsx';
import { shareRoutes } from './routes/share/index.tsx';
import { isPhone } from './lib/device.ts';
import { prefetchSceneFor } from './features/viewer/scene-api.ts';

// every page is a chunk of its own, loaded when first shown: a drawing link loads the viewer's code only
const Shell = lazyPage(() => import('./routes/yun/Shell.tsx'), 'Shell');
const FileList = lazyPage(() => import('./routes/yun/FileList.tsx'), 'FileList');
const Trash = lazyPage(() => import('./routes/yun/Trash.tsx'), 'Trash');
const Fonts = lazyPage(() => import('./routes/yun/Fonts.tsx'), 'Fonts');
const Versions = lazyPage(() => import('./routes/yun/Versions.tsx'), 'Versions');
const Library = lazyPage(() => import('./routes/yun/Library.tsx'), 'Library');
const LibraryDetail = lazyPage(() => import('./routes/yun/LibraryDetail.tsx'), 'LibraryDetail');
const H5Public = lazyPage(() => import('./routes/h5/H5Public.tsx'), 'H5Public');
const H5PublicDetail = lazyPage(() => import('./routes/h5/H5Public.tsx'), 'H5PublicDetail');
const Shares = lazyPage(() => import('./routes/yun/Shares.tsx'), 'Shares');
const ViewPage = lazyPage(() => import('./routes/yun/ViewPage.tsx'), 'ViewPage');
const PreviewPage = lazyPage(() => import('./routes/yun/PreviewPage.tsx'), 'PreviewPage');
const View3d = lazyPage(() => import('./features/model3d/View3dPage.tsx'), 'View3dPage');
const Compare = lazyPage(() => import('./routes/yun/Compare.tsx'), 'Compare');
const Transformer = lazyPage(() => import('./features/conversions/TransformerPage.tsx'), 'TransformerPage');
const Upgrade = lazyPage(() => import('./features/pay/UpgradePage.tsx'), 'UpgradePage');
const Orders = lazyPage(() => import('./features/pay/OrdersPage.tsx'), 'OrdersPage');
const Coupon = lazyPage(() => import('./features/pay/CouponPage.tsx'), 'CouponPage');
const Products = lazyPage(() => import('./features/pay/ProductsPage.tsx'), 'ProductsPage');
const Freeze = lazyPage(() => import('./features/pay/Freeze.tsx'), 'FreezePage');
const NotFound = lazyPage(() => import('./routes/NotFound.tsx'), 'NotFound');
const H5Shell = lazyPage(() => import('./routes/h5/H5Shell.tsx'), 'H5Shell');
const H5List = lazyPage(() => import('./routes/h5/H5List.tsx'), 'H5List');
const H5Upload = lazyPage(() => import('./routes/h5/H5Upload.tsx'), 'H5Upload');
const H5User = lazyPage(() => import('./routes/h5/H5User.tsx'), 'H5User');
const H5Item = lazyPage(() => import('./routes/h5/H5Item.tsx'), 'H5Item');
const InvoiceShell = lazyPage(() => import('./routes/invoice/InvoiceShell.tsx'), 'InvoiceShell');
const invoicePage = (name: string) => lazyPage(() => import('./routes/invoice/InvoicePages.tsx'), name as 'InvoiceIndex');
// spec section 2: /invoice's children
const INVOICE_PAGES = { index: 'InvoiceIndex', 'lite-intro': 'InvoiceLiteIntro', create: 'InvoiceCreate', title: 'InvoiceTitles', addTitle: 'InvoiceAddTitle', record: 'InvoiceRecord', detail: 'InvoiceDetail', book: 'InvoiceBook', notice: 'InvoiceNotice', reCreate: 'InvoiceReCreate' } as const;
const invoiceRoutes = Object.entries(INVOICE_PAGES).map(([path, name]) => {
  const Page = invoicePage(name);
  return { path, element: <Page /> };
});
const H5UserCenter = lazyPage(() => import('./routes/h5/H5Info.tsx'), 'H5UserCenter');
const H5Feedback = lazyPage(() => import('./routes/h5/H5Info.tsx'), 'H5Feedback');
const FeedbackPage = lazyPage(() => import('./routes/info/InfoPages.tsx'), 'FeedbackPage');
const ContactPage = lazyPage(() => import('./routes/info/InfoPages.tsx'), 'ContactPage');
const DeclarationPage = lazyPage(() => import('./routes/info/InfoPages.tsx'), 'DeclarationPage');
const HelpPage = lazyPage(() => import('./routes/info/InfoPages.tsx'), 'HelpPage');
const OperatorPage = lazyPage(() => import('./routes/operator/OperatorPage.tsx'), 'OperatorPage');

// system UI fonts first; the shipped Noto fonts fill in CJK glyphs on machines without them
const FONT_FAMILY = `-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "Microsoft YaHei", "Apple SD Gothic Neo", "Malgun Gothic", "Noto Sans SC", "Noto Sans KR", sans-serif`;

/** /view3d: one's own model signed in; a shared one (shareToken) also for a visitor who is not signed in */
function View3dRoute() {
  const [params] = useSearchParams();
  if (params.get('shareToken')) return <View3d />;
  return (
    <UserProvider>
      <View3d />
    </UserProvider>
  );
}

const ANTD_LOCALES = { zh: zhCN, en: enUS, ko: koKR, de: deDE } as const;

/** The signed-in part of the app: the user is fetched here, so the 404 page needs no sign-in. */
function SignedIn() {
  return (
    <UserProvider>
      <Outlet />
    </UserProvider>
  );
}

const router = createBrowserRouter([
  { path: '/', element: <Navigate to={isPhone() ? '/webH5' : '/yun/recent'} replace /> },
  {
    element: <SignedIn />,
    children: [
      { path: '/yun/view/:fileId', element: <ViewPage /> },
      { path: '/yun/preview/:fileId', element: <PreviewPage /> },
      ...groupViewRoutes,
      { path: '/yun/version/:fileId/compare', element: <Compare /> },
      {
        path: '/yun',
        element: <Shell />,
        children: [
          { index: true, element: <Navigate to="/yun/recent" replace /> },
          { path: 'recent', element: <FileList key="recent" kind="recent" /> },
          { path: 'index', element: <FileList key="index" kind="index" /> },
          { path: 'drawing', element: <FileList key="drawing" kind="drawing" /> },
          { path: 'threeModel', element: <FileList key="threeModel" kind="threeModel" /> },
          { path: 'picture', element: <FileList key="picture" kind="picture" /> },
          { path: 'other', element: <FileList key="other" kind="other" /> },
          { path: 'trash', element: <Trash /> },
          { path: 'public', element: <Library key="public" kind="public" /> },
          { path: 'public/:fileId', element: <LibraryDetail /> },
          { path: 'myPublic', element: <Library key="myPublic" kind="myPublic" /> },
          { path: 'myCollection', element: <Library key="myCollection" kind="myCollection" /> },
          { path: 'myLike', element: <Library key="myLike" kind="myLike" /> },
          { path: 'font', element: <Fonts /> },
          { path: 'share', element: <Shares /> },
          { path: 'transformer', element: <Transformer /> },
          { path: 'order', element: <Orders /> },
          { path: 'coupon', element: <Coupon /> },
          { path: 'freeze', element: <Freeze /> },
          ...groupShellRoutes,
          { path: 'version/:fileId', element: <Versions /> },
          { path: '*', element: <Navigate to="/404" replace /> },
        ],
      },
      // the spec's top-level upgrade page and account center, in the desktop shell
      {
        element: <Shell />,
        children: [
          { path: '/upgrade', element: <Upgrade /> },
          { path: '/secure/products', element: <Products /> },
        ],
      },
      // issue 23: the operator's page (the server refuses its calls to anyone not in OPERATOR_EMAILS)
      { path: '/operator', element: <OperatorPage /> },
      {
        path: '/invoice',
        element: <InvoiceShell />,
        children: [{ index: true, element: <Navigate to="/invoice/index" replace /> }, ...invoiceRoutes, { path: '*', element: <Navigate to="/404" replace /> }],
      },
      {
        path: '/webH5',
        element: <H5Shell />,
        children: [
          { index: true, element: <H5List key="home" mode="home" /> },
          { path: 'cloud', element: <H5List key="cloud" mode="cloud" /> },
          { path: 'threeModel', element: <H5List key="threeModel" mode="threeModel" /> },
          { path: 'upload', element: <H5Upload /> },
          { path: 'user', element: <H5User /> },
          { path: 'item/:fileId', element: <H5Item /> },
          { path: 'info', element: <Navigate to="/webH5/info/usercenter" replace /> },
          { path: 'info/usercenter', element: <H5UserCenter /> },
          { path: 'info/feedback', element: <H5Feedback /> },
          { path: 'info/publicplatform', element: <H5Public /> },
          { path: 'info/publicplatform/:fileId', element: <H5PublicDetail /> },
          { path: 'font', element: <Fonts /> },
          { path: 'transformer', element: <Transformer /> },
          { path: 'upgrade', element: <Upgrade /> },
          { path: 'order', element: <Orders /> },
          { path: 'coupon', element: <Coupon /> },
          { path: 'products', element: <Products /> },
          { path: 'freeze', element: <Freeze /> },
          ...groupShellRoutes,
          { path: 'version/:fileId', element: <Versions /> },
          { path: '*', element: <Navigate to="/404" replace /> },
        ],
      },
    ],
  },
  // share pages: public (a visitor opens them), so outside SignedIn
  ...shareRoutes,
  // a converted 3D model in a new tab (spec section 2); three.js is in this page's chunk only
  { path: '/view3d', element: <View3dRoute /> },
  // the information pages: open to visitors (the spec requires the e-mail with feedback so anyone can send it)
  { path: '/feedback', element: <FeedbackPage /> },
  { path: '/contactus', element: <ContactPage /> },
  { path: '/declaration', element: <DeclarationPage /> },
  { path: '/help', element: <HelpPage /> },
  { path: '/404', element: <NotFound /> },
  { path: '*', element: <Navigate to="/404" replace /> },
]);

const THEME = { token: { colorPrimary: '#1677ff', borderRadius: 6, fontFamily: FONT_FAMILY } };

/** The app's theme and antd locale for the user's language. */
function Themed({ children }: { children: React.ReactNode }) {
  const { i18n } = useTranslation();
  const locale = ANTD_LOCALES[i18n.language as keyof typeof ANTD_LOCALES] ?? zhCN;
  return (
    <ConfigProvider locale={locale} theme={THEME}>
      {children}
    </ConfigProvider>
  );
}

// message.success() and the other static calls render in antd's own root, outside Root's tree: without this they
// used antd's default fonts, which lack the shipped Noto Sans SC/KR, and Chinese notices were empty boxes on
// machines without system CJK fonts
ConfigProvider.config({ holderRender: (children) => <Themed>{children}</Themed> });

function Root() {
  return (
    <Themed>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </Themed>
  );
}

reshapeWhenFontsLoad();
// a drawing link: its scene downloads while the app boots (index.html asked for it already), the viewer's code too
prefetchSceneFor(window.location.pathname);
if (/^\/yun\/view\//.test(window.location.pathname)) void ViewPage.preload();
else if (/^\/webH5\/item\//.test(window.location.pathname)) void H5Item.preload();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
