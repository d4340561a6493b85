import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

export interface DrawingFailure {
  kind: string;
  detail: string | null;
  failedAt: number;
}

/** `layout` as stored: lower-cased, '*' for the whole drawing */
export const WHOLE_DRAWING = '*';

/** The queries of failed scene builds (drawings.service.ts says which are remembered and for how long). */
export function createDrawingFailuresRepository(db: Kysely<Database>) {
  return {
    /** The failures of these bytes under `engine` for the whole drawing or this layout. */
    async find(md5: string, engine: string, layout: string): Promise<DrawingFailure[]> {
      const rows = await db
        .selectFrom('drawing_failures')
        .select(['kind', 'detail', 'failed_at'])
        .where('blob_md5', '=', md5)
        .where('engine', '=', engine)
        .where('layout', 'in', [WHOLE_DRAWING, layout])
        .execute();
      return rows.map((r) => ({ kind: r.kind, detail: r.detail, failedAt: Number(r.failed_at) }));
    },
    /** Remembers a failure (the latest one per bytes, engine and layout); rows of older engines for these bytes go. */
    async record(md5: string, engine: string, layout: string, kind: string, detail: string | null, at: number): Promise<void> {
      await db.deleteFrom('drawing_failures').where('blob_md5', '=', md5).where('engine', '!=', engine).execute();
      await db
        .insertInto('drawing_failures')
        .values({ blob_md5: md5, engine, layout, kind, detail: detail?.slice(0, 500) ?? null, failed_at: at })
        .onConflict((oc) => oc.columns(['blob_md5', 'engine', 'layout']).doUpdateSet({ kind, detail: detail?.slice(0, 500) ?? null, failed_at: at }))
        .execute();
    },
  };
}
