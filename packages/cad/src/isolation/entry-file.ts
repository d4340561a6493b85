import path from 'node:path';

/**
 * Whether this code runs from its TypeScript sources (tsx, vitest) or from the compiled build (`npm run build`):
 * a bundle is plain `.mjs`, so this module's own address says which (its path: tsx's tsImport, which starts worker
 * threads from the sources, adds a `?tsx-namespace=…` query).
 */
export const fromSources = new URL(import.meta.url).pathname.endsWith('.ts');

/**
 * The file a child process or thread of the engine starts on. From the sources it is `fileName` in `sourceDir`
 * (beside the code that starts it); compiled, every such entry is bundled under the same name beside the bundle that
 * starts it (packages/cad/dist for the command line, apps/server/dist for the server and its worker threads).
 */
export function entryFile(sourceDir: string, fileName: string): string {
  return path.join(fromSources ? sourceDir : import.meta.dirname, fileName);
}
