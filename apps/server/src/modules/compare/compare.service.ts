import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CompareChangesResult } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { getVersionForUser, type VersionRef } from '../versions/versions.service.ts';
import { isViewableName } from '../drawings/viewable.ts';
import { SCENE_ENGINE, type DrawingFonts } from '../drawings/drawings.service.ts';
import { CompareBuildError, type CompareBuilder, type CompareBuilt } from './compare-builder.ts';

/**
 * Bump when the compare's output changes: cached results of an older engine are rebuilt, never served. The scene
 * engine's version is part of it (the overlay is a scene: a new scene format must never meet an old cached one).
 */
export const COMPARE_ENGINE = `c1-${SCENE_ENGINE}`;

async function readAll(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/**
 * Where a compare is cached: per pair of blobs (same bytes, same result, whichever files hold them), engine and
 * layout; the overlay scene also per font set (its texts are drawn with the owner's fonts).
 */
export function compareKeys(md5A: string, md5B: string, layout: string, fontsFingerprint: string) {
  const l = createHash('sha1').update(layout).digest('hex').slice(0, 16);
  const f = createHash('sha1').update(`${layout}\n${fontsFingerprint}`).digest('hex').slice(0, 20);
  const base = `compares/${md5A.slice(0, 2)}/${md5A}-${md5B}/${COMPARE_ENGINE}`;
  return { changes: `${base}/${l}.json`, scene: `${base}/${f}.bin` };
}

export interface CompareQuery {
  fileId: string;
  a: string;
  b: string;
  layout: string;
}

/** A build failure as the spec's compare messages: a DWG that LibreDWG cannot convert, a file that cannot be parsed. */
function toAppError(e: unknown): never {
  if (e instanceof CompareBuildError) {
    if (e.kind === 'layout') throw appError('drawing.layoutFailed');
    if (e.kind === 'convert') throw appError('compare.convertFailed');
  }
  throw appError('compare.parseFailed');
}

/** Comparing two versions of one of the user's drawings (owner only): change list and overlay scene, cached. */
export function createCompareService(deps: AppDeps, builder: CompareBuilder, fonts: DrawingFonts) {
  const inFlight = new Map<string, Promise<CompareBuilt>>();

  async function versions(uid: string, q: CompareQuery): Promise<[VersionRef, VersionRef]> {
    const [a, b] = await Promise.all([getVersionForUser(deps.db, uid, q.a), getVersionForUser(deps.db, uid, q.b)]);
    // another user's version, a deleted one, or one of another file: "file does not exist"
    if (!a || !b || a.fileId !== q.fileId || b.fileId !== q.fileId) throw appError('item.notFound');
    for (const v of [a, b]) {
      if (!isViewableName(v.sourceName)) throw appError('compare.notDrawing');
      if (v.size > deps.config.webOpenFileSize) throw appError('drawing.overSize');
    }
    // a frozen file cannot be viewed (spec section 4), nor its versions side by side
    const item = await deps.db.selectFrom('items').select('freeze').where('id', '=', q.fileId).where('uid', '=', uid).executeTakeFirst();
    if (item?.freeze === 1) throw appError('file.frozen');
    return [a, b];
  }

  async function build(uid: string, a: VersionRef, b: VersionRef, layout: string, keys: { changes: string; scene: string }): Promise<CompareBuilt> {
    const [bytesA, bytesB] = await Promise.all([readAll(await deps.storage.get(blobKey(a.blobMd5))), readAll(await deps.storage.get(blobKey(b.blobMd5)))]);
    let built: CompareBuilt;
    try {
      built = await builder.build({ a: bytesA, nameA: a.sourceName, b: bytesB, nameB: b.sourceName, layout }, fonts.lookup(uid));
    } catch (e) {
      toAppError(e);
    }
    const scene = Buffer.from(built.scene.buffer, built.scene.byteOffset, built.scene.byteLength);
    await deps.storage.put(keys.scene, scene, { size: scene.byteLength, contentType: 'application/octet-stream' });
    const json = Buffer.from(built.changes);
    await deps.storage.put(keys.changes, json, { size: json.byteLength, contentType: 'application/json' });
    return built;
  }

  /** One build per key at a time: the scene and the list asked together share it. */
  async function built(uid: string, q: CompareQuery) {
    const [a, b] = await versions(uid, q);
    const keys = compareKeys(a.blobMd5, b.blobMd5, q.layout, await fonts.fingerprint(uid));
    const run = () => {
      let p = inFlight.get(keys.scene);
      if (!p) {
        p = build(uid, a, b, q.layout, keys).finally(() => inFlight.delete(keys.scene));
        inFlight.set(keys.scene, p);
      }
      return p;
    };
    return { a, b, keys, run };
  }

  return {
    /** The change list from version A to version B. */
    async changes(uid: string, q: CompareQuery): Promise<CompareChangesResult & { cached: boolean }> {
      const { a, b, keys, run } = await built(uid, q);
      let json: string;
      let cached = false;
      if ((await deps.storage.size(keys.changes)) !== null) {
        json = (await readAll(await deps.storage.get(keys.changes))).toString('utf8');
        cached = true;
      } else json = (await run()).changes;
      const r = JSON.parse(json) as Pick<CompareChangesResult, 'layout' | 'counts' | 'changes'>;
      return { fileId: q.fileId, a: { versionId: a.versionId, number: a.number }, b: { versionId: b.versionId, number: b.number }, layout: r.layout, counts: r.counts, changes: r.changes, cached };
    },

    /** The overlay scene: cached bytes as a stream, or freshly built bytes. */
    async scene(uid: string, q: CompareQuery): Promise<{ body: Readable | Uint8Array; cached: boolean; size: number }> {
      const { keys, run } = await built(uid, q);
      const size = await deps.storage.size(keys.scene);
      if (size !== null) return { body: await deps.storage.get(keys.scene), cached: true, size };
      const body = (await run()).scene;
      return { body, cached: false, size: body.byteLength };
    },
  };
}
