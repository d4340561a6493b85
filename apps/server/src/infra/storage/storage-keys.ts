/** Keys are relative, slash-separated, without `..`, so a key can never escape the storage root. */
export function assertSafeKey(key: string): void {
  if (!key || key.length > 512 || key.startsWith('/') || key.includes('\\') || key.split('/').some((p) => p === '' || p === '.' || p === '..') || /[\u0000-\u001f]/.test(key)) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  }
}

/** Content-addressed key of a blob: `blobs/ab/<md5>`. */
export function blobKey(md5: string): string {
  return `blobs/${md5.slice(0, 2)}/${md5}`;
}
