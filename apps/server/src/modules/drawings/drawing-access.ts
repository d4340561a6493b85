import type { AppDeps } from '../../app.deps.ts';

/** The stored drawing a viewer request resolves to, and whose font library renders it. */
export interface DrawingSource {
  name: string;
  size: number;
  freeze: number;
  blobMd5: string;
  /** the drawing's owner: their fonts (then published ones) render it, whoever is looking */
  fontsOwner: string;
}

/** What the viewer asked for: its signed-in user (if any) and how it claims the right to look. */
export interface DrawingRequest {
  uid?: string;
  fileId: string;
  /** from share extraction (shares module) */
  shareToken?: string;
  /** an earlier version of the file (versions module) */
  versionId?: string;
}

/**
 * One way of being allowed to see a drawing (own file, share, public library, version). Answer undefined when the
 * request is not of your kind or you do not grant it; throw an appError to refuse with a specific reason.
 */
export type DrawingAccessResolver = (req: DrawingRequest) => Promise<DrawingSource | undefined>;

// per app (deps object), so parallel test apps never see each other's resolvers
const registries = new WeakMap<object, DrawingAccessResolver[]>();

/** Lets a module grant viewer access (called from its route module; order of registration is the order asked). */
export function addDrawingAccess(deps: AppDeps, resolver: DrawingAccessResolver): void {
  const list = registries.get(deps) ?? [];
  list.push(resolver);
  registries.set(deps, list);
}

/** The first resolver that grants access wins; none → undefined (the caller answers 'No permission to visit this file.'). */
export async function resolveDrawingAccess(deps: AppDeps, req: DrawingRequest): Promise<DrawingSource | undefined> {
  for (const r of registries.get(deps) ?? []) {
    const s = await r(req);
    if (s) return s;
  }
  return undefined;
}
