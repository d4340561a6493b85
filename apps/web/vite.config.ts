import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.API_URL ?? 'http://127.0.0.1:8080';

/**
 * Pages opened straight from a link whose code index.html fetches at once, beside the entry (each page is a
 * chunk of its own, see main.tsx): a drawing link then does not wait for the entry to run before the viewer's
 * code is asked for. Path pattern (tested in the browser) → the page's module.
 */
const EARLY_PAGES: [RegExp, string][] = [
  [/^\/yun\/view\//, 'src/routes/yun/ViewPage.tsx'],
  [/^\/webH5\/item\//, 'src/routes/h5/H5Item.tsx'],
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
        const rules = EARLY_PAGES.flatMap(([re, mod]) => {
          const page = chunks.find((c) => c.facadeModuleId?.endsWith(mod));
          if (!page) return [];
          const files = [...closure([page.fileName, ...(painter ? [painter.fileName] : [])])].filter((f) => !entry.has(f)).map((f) => `/${f}`);
          return [[re.source, files] as const];
        });
        if (!rules.length) return html;
        // on a drawing link: preload the page's chunks and run the early painter as soon as it arrives
        const paint = painter ? `/${painter.fileName}` : '';
        const script = `<script>(function(){var r=${JSON.stringify(rules)};for(var i=0;i<r.length;i++)if(new RegExp(r[i][0]).test(location.pathname)){r[i][1].forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l);});var p=${JSON.stringify(paint)};if(p&&window.__cadScene){var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=p;s.onerror=function(){window.__cadGateOpen&&window.__cadGateOpen();};document.head.appendChild(s);}break;}})();</script>`;
        // the app's entry runs once the early frame is drawn (or cannot be): both need the one main thread. It is
        // still fetched at once (modulepreload); pages without an early frame have no gate and run it as before.
        html = html.replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/, (_, src) => `<link rel="modulepreload" crossorigin href="${src}">\n    <script type="module">(window.__cadGate || Promise.resolve()).then(function () { return import(${JSON.stringify(src)}); });</script>`);
        return html.replace('</head>', `${script}\n  </head>`);
      },
    },
  };
}

export default defineConfig(({ command, mode }) => {
  // a production build is one even when a test runner starts it (vitest sets NODE_ENV=test, which made Vite build
  // React's development code with StrictMode's doubled effects: slower, and two scene requests per open)
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), earlyPagePreload()],
    server: { proxy: Object.fromEntries(['/api', '/cloud', '/user', '/global'].map((p) => [p, { target: api, changeOrigin: false }])) },
    build: { outDir: 'dist', chunkSizeWarningLimit: 2000, rollupOptions: { input: { index: 'index.html', 'early-paint': EARLY_PAINT } } },
  };
});
