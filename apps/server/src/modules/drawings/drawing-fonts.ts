import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app.deps.ts';
import { findFontBytes } from '../fonts/fonts.service.ts';
import type { DrawingFonts } from './drawings.service.ts';

/**
 * The fonts a user's drawings are drawn with: their own library first, then published fonts (the fonts
 * module decides). The fingerprint covers both sets, so uploading the missing font makes the next open
 * rebuild the scene with it instead of serving the cached substitute.
 */
export function drawingFonts(deps: AppDeps): DrawingFonts {
  return {
    lookup: (uid) => async (fileName) => (await findFontBytes(deps, uid, fileName))?.bytes ?? null,
    async fingerprint(uid) {
      const rows = await deps.db
        .selectFrom('fonts')
        .select(['name_key', 'blob_md5', 'uid'])
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('uid', '=', uid), eb('is_public', '=', 1)]))
        .orderBy('name_key')
        .orderBy('blob_md5')
        .execute();
      if (!rows.length) return '';
      const h = createHash('sha1');
      for (const r of rows) h.update(`${r.uid === uid ? 'u' : 'p'}:${r.name_key}:${r.blob_md5}\n`);
      return h.digest('hex');
    },
  };
}
