import type { AppDeps } from '../../app.deps.ts';
import { glbKey, lodKey, revitInfoKey } from './model3d.keys.ts';
import { createModel3dRepository } from './model3d.repository.ts';

/** What is made of one blob's bytes, removed with the bytes: its GLBs and their coarse levels (the plain ones and those made with files beside it), a Revit file's metadata. */
export function createModel3dGlbs(deps: Pick<AppDeps, 'db' | 'storage'>) {
  const repo = createModel3dRepository(deps.db);
  return {
    async purgeBlob(md5: string) {
      for (const c of [null, ...(await repo.companionDigestsOf(md5))]) {
        for (const k of [glbKey(md5, c), lodKey(md5, c)]) await deps.storage.delete(k).catch(() => undefined);
      }
      await deps.storage.delete(revitInfoKey(md5)).catch(() => undefined);
    },
  };
}
