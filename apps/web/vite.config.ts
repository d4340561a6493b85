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
        const entry = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
        const rules = EARLY_PAGES.flatMap(([re, mod]) => {
          const page = chunks.find((c) => c.facadeModuleId?.endsWith(mod));
          if (!page) return [];
          const files = [...closure([page.fileName])].filter((f) => !entry.has(f)).map((f) => `/${f}`);
          return [[re.source, files] as const];
        });
        if (!rules.length) return html;
        const script = `<script>(function(){var r=${JSON.stringify(rules)};for(var i=0;i<r.length;i++)if(new RegExp(r[i][0]).test(location.pathname)){r[i][1].forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l);});break;}})();</script>`;
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
    build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
  };
});
