import { createHash } from 'node:crypto';
import { SCENE_FORMAT } from '@cadcloud/cad/scene';
import type { Readable } from 'node:stream';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { createItemsRepository } from '../files/items.repository.ts';
import { resolveDrawingAccess, type DrawingRequest, type DrawingSource } from './drawing-access.ts';
import { isViewableName } from './viewable.ts';
import { SceneBuildError, type FontLookup, type SceneBuilder, type SceneTimings } from './scene-builder.ts';
import { QueueFullError, type QueueTicket } from './fair-queue.ts';
import { sceneCache } from '../../infra/observability/metrics.ts';
import { createDrawingFailuresRepository, WHOLE_DRAWING } from './drawing-failures.repository.ts';
import { sharedSceneBuilder } from './scene-builder.ts';
import { drawingFonts } from './drawing-fonts.ts';

/**
 * Cached scenes of another engine are rebuilt, never served: the scene format's version, with a suffix to bump when
 * the engine draws differently in the same format (.1: the bounds hold text geometry; .2: dashed circles, arcs and
 * ellipses as exact dash curves; .3: drawings with wipeouts carry depth tiers, packages/cad/src/scene/tiers.ts;
 * .4: issue 15 text — no blank first line before paragraph codes, unsplit words, mirrored MTEXT, frames, faces;
 * .5: issue 15 colour — white is white and true colour wins, white fills mask, viewports with status 0 drawn, layers
 * off in the file kept, gradients; .6: issue 16 item 11 — the head carries the drawing's unit format, $LUNITS/$LUPREC, for
 * measuring).
 */
export const SCENE_ENGINE = `e${SCENE_FORMAT}.6`;

/**
 * The engine a remembered failure belongs to: the scene engine and the version of the engine's content bounds
 * (packages/cad/src/geometry/content-budget.ts). Bump `b` when the bounds change, so drawings that failed on the old
 * ones are built again; a new scene engine does the same.
 */
export const FAILURE_ENGINE = `${SCENE_ENGINE}.b1`;

/**
 * Failed builds are remembered per bytes (blob md5: each file version, each copy of the same bytes) and layout, and a
 * later open answers the same error at once, without a worker job:
 * - `parse` (the file cannot be read): for the whole drawing, until the engine changes;
 * - `tooComplex` (past the engine's content bounds or time budget): for that layout, until the engine changes;
 * - `timeout` and `crash` (the worker's hard limits, which load on the machine can cause too): for that layout, for
 *   SCENE_FAILURE_RETRY_MS (default an hour), then one new try;
 * - `layout` (no such layout) is not remembered: the worker still holds the drawing it read, so it answers quickly.
 * A changed file is new bytes (a new md5): it is always built.
 */
const RETRIED_KINDS = new Set(['timeout', 'crash']);

function errorOf(kind: string) {
  if (kind === 'layout') return appError('drawing.layoutFailed');
  if (kind === 'tooComplex') return appError('drawing.tooComplex');
  return appError('drawing.parseFailed');
}

async function readAll(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Where a scene is cached: per blob (same bytes, same scene), engine, layout and the fonts it was built with. */
export function sceneKey(md5: string, layout: string, fontsFingerprint: string): string {
  const h = createHash('sha1').update(`${layout}\n${fontsFingerprint}`).digest('hex').slice(0, 20);
  return `scenes/${md5.slice(0, 2)}/${md5}/${SCENE_ENGINE}/${h}.bin`;
}

export interface DrawingFonts {
  /** font bytes by file name, as the user's drawings see them (own library, then public fonts) */
  lookup(uid: string): FontLookup;
  /** changes whenever that set of fonts changes, so a newly uploaded font rebuilds the scene */
  fingerprint(uid: string): Promise<string>;
}

const NO_FONTS: DrawingFonts = { lookup: () => async () => null, fingerprint: async () => '' };

/**
 * Opening a drawing: who may see it, the spec's limits, then the scene from the cache or built once by the
 * worker (concurrent opens of the same file share one build).
 */
export function createDrawingsService(deps: AppDeps, builder: SceneBuilder, fonts: DrawingFonts = NO_FONTS) {
  const items = createItemsRepository(deps.db);
  const failures = createDrawingFailuresRepository(deps.db);
  const retryMs = deps.config.sceneFailureRetryMs;

  /** The remembered failure of these bytes and layout that still stands, if any. */
  async function recalled(md5: string, layout: string): Promise<string | undefined> {
    const now = Date.now();
    for (const f of await failures.find(md5, FAILURE_ENGINE, layout.toLowerCase())) if (!RETRIED_KINDS.has(f.kind) || now - f.failedAt < retryMs) return f.kind;
    return undefined;
  }

  async function remember(md5: string, layout: string, e: SceneBuildError): Promise<void> {
    // a build cut short by the server closing says nothing about the drawing
    if (e.kind === 'layout' || (e.kind === 'crash' && e.detail === 'closing')) return;
    await failures.record(md5, FAILURE_ENGINE, e.kind === 'parse' ? WHOLE_DRAWING : layout.toLowerCase(), e.kind, e.detail ?? null, Date.now()).catch((x) => console.error(`drawing failure of ${md5}: not remembered`, x));
  }
  /** The owner's own live file first; other ways in (shares, public library, versions) are registered by their modules. */
  async function resolve(req: DrawingRequest): Promise<DrawingSource | undefined> {
    if (req.uid && !req.shareToken && !req.versionId) {
      const row = await items.findOne(req.uid, req.fileId);
      if (row && row.kind === 1 && row.blob_md5) return { name: row.name, size: Number(row.size), freeze: row.freeze, blobMd5: row.blob_md5, fontsOwner: row.uid };
    }
    return resolveDrawingAccess(deps, req);
  }
  /**
   * Builds in progress or just built and still being written to the cache, by cache key: concurrent opens share one
   * build, and an open that comes while the finished scene is being written takes it from memory.
   */
  const inFlight = new Map<string, Build>();
  interface Build {
    scene: Promise<Uint8Array>;
    built: boolean;
    stored: Promise<void>;
    timings: SceneTimings;
    /** background (a prewarm) until someone opens the drawing while it waits */
    ticket: QueueTicket;
  }

  async function build(md5: string, fileName: string, layout: string, uid: string, timings: SceneTimings, requester: string, ticket: QueueTicket): Promise<Uint8Array> {
    const t0 = performance.now();
    const bytes = await readAll(await deps.storage.get(blobKey(md5)));
    timings.read = performance.now() - t0;
    try {
      return await builder.build(bytes, fileName, layout, fonts.lookup(uid), timings, md5, requester, ticket);
    } catch (e) {
      if (e instanceof QueueFullError) throw appError('drawing.busy');
      if (!(e instanceof SceneBuildError)) throw appError('drawing.parseFailed');
      await remember(md5, layout, e);
      throw errorOf(e.kind);
    }
  }

  /**
   * The scene is answered as soon as it is built; writing it to the cache (temp file, fsync, rename: ~tens of ms)
   * goes on behind the answer, so a first open does not wait for the disk. A failed write only costs a rebuild later.
   */
  function buildAndStore(key: string, md5: string, fileName: string, layout: string, uid: string, requester: string, background: boolean) {
    const entry = { built: false, timings: {}, ticket: { background } } as Build;
    entry.scene = build(md5, fileName, layout, uid, entry.timings, requester, entry.ticket);
    entry.stored = entry.scene
      .then(async (scene) => {
        entry.built = true;
        await deps.storage.put(key, Buffer.from(scene.buffer, scene.byteOffset, scene.byteLength), { size: scene.byteLength, contentType: 'application/octet-stream' });
      })
      .catch((e) => {
        if (entry.built) console.error(`scene cache ${key}: not written`, e);
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, entry);
    return entry;
  }

  return {
    /** Who may see the drawing and what it is (the pictures of its IMAGEs are served under the same rules). */
    access: resolve,
    /** The scene of one layout of a file the user may read: cached bytes as a stream, or freshly built bytes. */
    async scene(req: DrawingRequest, layout: string, o: { background?: boolean } = {}): Promise<{ key: string; body: Readable | Uint8Array; cached: boolean; size: number; stored?: Promise<void>; timings?: SceneTimings }> {
      const row = await resolve(req);
      if (!row) throw appError('drawing.noPermission');
      if (row.freeze === 1) throw appError('file.frozen');
      if (!isViewableName(row.name)) throw appError('drawing.loadFailed');
      if (row.size > deps.config.webOpenFileSize) throw appError('drawing.overSize');
      const uid = row.fontsOwner;
      const key = sceneKey(row.blobMd5, layout, await fonts.fingerprint(uid));
      const size = await deps.storage.size(key);
      if (size !== null) {
        sceneCache.inc({ result: 'hit' });
        return { key, body: await deps.storage.get(key), cached: true, size };
      }
      let pending = inFlight.get(key);
      if (!pending) {
        // a drawing that failed answers that failure at once (no worker job) until the file or the engine changes
        const failed = await recalled(row.blobMd5, layout);
        if (failed) throw errorOf(failed);
        pending = inFlight.get(key);
      }
      // an open that finds the scene built (being written) takes it as a cache hit: nothing is built for it
      const hit = pending?.built ?? false;
      sceneCache.inc({ result: hit ? 'hit' : pending ? 'joined' : 'miss' });
      // the build waits for its requester's turn (scene-builder.ts): a visitor through a share counts as the owner
      // an open that finds the prewarm of this very scene still waiting in line takes it to the front
      if (pending && !o.background && pending.ticket.background) {
        pending.ticket.background = false;
        builder.promote();
      }
      const entry = pending ?? buildAndStore(key, row.blobMd5, row.name, layout, uid, req.uid ?? uid, o.background === true);
      const body = await entry.scene;
      return { key, body, cached: hit, size: body.byteLength, stored: entry.stored, timings: hit ? undefined : entry.timings };
    },
  };
}

const shared = new WeakMap<object, ReturnType<typeof createDrawingsService>>();

/**
 * One drawings service per app, shared by the scene route and the prewarm job: its builds in flight are what an open
 * joins, so an open of a file whose prewarm is building takes that build (issue 16 item 14). With a service each, the
 * route never saw the job's build and built the same scene a second time behind it.
 */
export function sharedDrawingsService(deps: AppDeps) {
  let s = shared.get(deps);
  if (!s) {
    s = createDrawingsService(deps, sharedSceneBuilder(deps), drawingFonts(deps));
    shared.set(deps, s);
  }
  return s;
}
