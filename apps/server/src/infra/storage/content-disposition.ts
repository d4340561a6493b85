/**
 * `attachment` with the name twice: `filename*` (RFC 5987, UTF-8, what every current browser uses) and an
 * ASCII `filename` fallback for old clients, so a Chinese drawing name arrives intact and never breaks the header.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
