/**
 * Where a 3D file's GLB is kept: per content (md5), so a re-upload of the same bytes, or a copy, reuses it; it goes
 * with the bytes (blobs.service.ts release, model3d-glbs.ts). A model converted with files beside it (an OBJ's MTL and
 * textures) is kept per md5 and the digest of those files (`companions`). A derived cache like a drawing's scene or
 * thumbnail: it is NOT counted in the user's storage (the results of modules/conversions are files of the drive and
 * are counted; a GLB is no file).
 */
export function glbKey(md5: string, companions?: string | null): string {
  return `model3d/v1/${md5.slice(0, 2)}/${md5}${companions ? `-${companions}` : ''}.glb`;
}

/** A Revit file's metadata (revitInfo3D), read once per content (v2: with the Project Information parameters). */
export function revitInfoKey(md5: string): string {
  return `model3d/revit/v2/${md5.slice(0, 2)}/${md5}.json`;
}

/** A big model's coarse level of detail (packages/model3d glb/lod.ts), beside its GLB and going with it. */
export function lodKey(md5: string, companions?: string | null): string {
  return `model3d/v1/${md5.slice(0, 2)}/${md5}${companions ? `-${companions}` : ''}.lod.glb`;
}
