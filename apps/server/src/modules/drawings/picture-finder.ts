import { DRAWING_PICTURE_TYPES } from '@cadcloud/contracts';
import { pictureBaseName } from '@cadcloud/cad';
import type { AppDeps } from '../../app.deps.ts';
import { createDrawingImagesRepository, type PictureRow } from './drawing-images.repository.ts';

/**
 * The key of a picture lookup: the lower-cased base name without its extension. `find` takes a file of the same name
 * or of this stem with any picture extension, so a picture file can serve exactly the IMAGEs whose stem equals its own.
 */
export function pictureStemOf(file: string): string {
  const base = pictureBaseName(file).toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Where the picture an IMAGE names is, in one user's drive: the drawing names a file on the author's machine
 * (`C:\site\photo.JPG`, `.\image.jpg`), so only its base name means anything here. The same name (ignoring
 * case) wins over the same name with another picture extension (a TIFF the user saved as PNG); within each,
 * the drawing's own folder wins, then the most recently changed file. Only this user's files are searched:
 * whoever looks at the drawing, its pictures come from its owner's drive.
 */
export function createPictureFinder(deps: Pick<AppDeps, 'db'>) {
  const repo = createDrawingImagesRepository(deps.db);
  return {
    folderOf: repo.folderOf,
    async find(ownerUid: string, drawingFolder: string | undefined, file: string): Promise<PictureRow | undefined> {
      const base = pictureBaseName(file).toLowerCase();
      if (!base) return undefined;
      const stem = pictureStemOf(base);
      const names = [...new Set([base, ...DRAWING_PICTURE_TYPES.map((t) => `${stem}.${t}`)])];
      // lower() of SQLite folds ASCII only: the same rule is applied here to whatever came back
      const rows = (await repo.picturesNamed(ownerUid, names, DRAWING_PICTURE_TYPES)).filter((r) => names.includes(r.name.toLowerCase()));
      const rank = (r: PictureRow) => (r.name.toLowerCase() === base ? 0 : 2) + (r.parent_id === drawingFolder ? 0 : 1);
      rows.sort((a, b) => rank(a) - rank(b) || b.modified_at - a.modified_at || (a.id < b.id ? -1 : 1));
      return rows[0];
    },
  };
}

export type PictureFinder = ReturnType<typeof createPictureFinder>;
