import { lazy, Suspense, type ComponentType } from 'react';
import { Spin } from 'antd';

const RELOADED = 'cadcloud.chunk-reload';

/**
 * A page whose code is a chunk of its own, fetched the first time it is shown (route-level code splitting: the
 * viewer route does not load the drive, fonts, shares … code). `load` is the dynamic import; `preload()` starts it
 * early (the viewer's chunk while the app boots). After a new release the old chunks are gone: a failed chunk load
 * reloads the page once, which fetches the new index.html and its chunks.
 */
export function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] & { preload(): Promise<unknown> } {
  let loading: Promise<{ default: ComponentType<any> }> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (m) => {
        sessionStorage.removeItem(RELOADED);
        return { default: m[name] as ComponentType<any> };
      },
      (e) => {
        loading = null;
        if (!sessionStorage.getItem(RELOADED)) {
          sessionStorage.setItem(RELOADED, '1');
          window.location.reload();
          return new Promise<never>(() => undefined);
        }
        throw e;
      },
    ));
  const Lazy = lazy(preload);
  const Page = (props: Record<string, unknown>) => (
    <Suspense fallback={<Spin delay={300} style={{ display: 'block', margin: '20vh auto' }} />}>
      <Lazy {...props} />
    </Suspense>
  );
  return Object.assign(Page, { preload }) as unknown as M[K] & { preload(): Promise<unknown> };
}
