import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// relative, not the package name: Vite bundles a config's relative imports, and leaves packages to Node (no .ts there)
import { brandIconSvg, webManifest } from '../../packages/contracts/src/brand.ts';

const api = process.env.API_URL ?? 'http://127.0.0.1:8080';

/**
 * Pages opened straight from a drawing link, whose chunks the boot script below preloads with the entry's (each page
 * is a chunk of its own, see main.tsx), so the viewer's code does not wait for the entry to run before it is asked
 * for. Path pattern (tested in the browser) → the page's module.
 */
const EARLY_PAGES: [RegExp, string][] = [
  [/^\/yun\/view\//, 'src/routes/yun/ViewPage.tsx'],
  [/^\/webH5\/item\//, 'src/routes/h5/H5Item.tsx'],
  // a share's drawing (index.html asks for its scene with the tab's share token)
  [/^\/(?:share|easyShare|webH5\/simple|webH5\/share\/[^/]+)\/[^/]+\/view\//, 'src/routes/share/ShareViewPage.tsx'],
];
/** The early painter: an entry of its own that draws a drawing link's first frame before the app boots. */
const EARLY_PAINT = 'src/features/viewer/early-paint.ts';

function earlyPagePreload(): Plugin {
  return {
    name: 'cadcloud-early-page-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (roots: string[]) => {
          const seen = new Set<string>();
          const todo = [...roots];
          while (todo.length) {
            const f = todo.pop()!;
            if (seen.has(f)) continue;
            seen.add(f);
            todo.push(...(byFile.get(f)?.imports ?? []));
          }
          return seen;
        };
        const painter = chunks.find((c) => c.facadeModuleId?.endsWith(EARLY_PAINT));
        const entry = closure(chunks.filter((c) => c.isEntry && c !== painter).map((c) => c.fileName));
        const url = (f: string) => `/${f}`;
        const rules = EARLY_PAGES.flatMap(([re, mod]) => {
          const page = chunks.find((c) => c.facadeModuleId?.endsWith(mod));
          if (!page) return [];
          return [[re.source, [...closure([page.fileName])].filter((f) => !entry.has(f)).map(url)] as const];
        });
        // Vite's own tags for the entry (its script and the modulepreloads of its imports) give way to the boot script
        const main = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        if (!main) return html;
        html = html.replace(main[0], '').replace(/<link rel="modulepreload" crossorigin href="[^"]+">\s*/g, '');
        // The order matters on a drawing link, where one main thread (and two cores here) does it all: the early
        // painter and its two imports first, then nothing of the app until the first frame is drawn (the gate,
        // index.html), since the app's modules compile on the same thread and delayed the painter by ~50 ms when
        // they were preloaded beside it. Other pages boot at once, with the same preloads.
        const boot = {
          rules,
          painter: painter ? [...closure([painter.fileName])].map(url) : [],
          entry: main[1],
          preloads: [...entry].map(url).filter((h) => h !== main[1]),
        };
        const script = `<script>(function(){var b=${JSON.stringify(boot)},page=[];function preload(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l);}for(var i=0;i<b.rules.length;i++)if(new RegExp(b.rules[i][0]).test(location.pathname)){page=b.rules[i][1];if(b.painter.length&&window.__cadScene){b.painter.slice(1).forEach(preload);var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=b.painter[0];s.onerror=function(){window.__cadGateOpen&&window.__cadGateOpen();};document.head.appendChild(s);}break;}(window.__cadGate||Promise.resolve()).then(function(){b.preloads.concat(page).forEach(preload);return import(b.entry);});})();</script>`;
        // right after index.html's own inline script (which asks for the scene), before the stylesheet
        return html.replace(/(<\/script>)/, `$1\n    ${script}`);
      },
    },
  };
}

/** The icon and manifest of the product (packages/contracts/src/brand.ts): emitted by the build, served in development. */
function brandAssets(): Plugin {
  const files: Record<string, { type: string; body: string }> = {
    'favicon.svg': { type: 'image/svg+xml', body: brandIconSvg },
    'manifest.webmanifest': { type: 'application/manifest+json', body: webManifest({ name: 'CADCloud', shortName: 'CADCloud', startUrl: '/yun' }) },
  };
  return {
    name: 'cadcloud-brand-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const f = files[(req.url ?? '').split('?')[0].slice(1)];
        if (!f) return next();
        res.setHeader('content-type', f.type);
        res.end(f.body);
      });
    },
    generateBundle() {
      for (const [fileName, f] of Object.entries(files)) this.emitFile({ type: 'asset', fileName, source: f.body });
    },
  };
}

export default defineConfig(({ command, mode }) => {
  // a production build is one even when a test runner starts it (vitest sets NODE_ENV=test, which made Vite build
  // React's development code with StrictMode's doubled effects: slower, and two scene requests per open)
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), earlyPagePreload(), brandAssets()],
    server: { proxy: Object.fromEntries(['/api', '/cloud', '/user', '/global'].map((p) => [p, { target: api, changeOrigin: false }])) },
    build: { outDir: 'dist', chunkSizeWarningLimit: 2000, rollupOptions: { input: { index: 'index.html', 'early-paint': EARLY_PAINT } } },
  };
});
