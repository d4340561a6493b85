/**
 * The address a sign-in returns to. Only a path on the product's own origin is ever accepted; anything else
 * falls back to the drive. Checked where the address is taken (`/api/auth/login`) and again where it is
 * emitted (the callback), so a value that slipped into the transaction cookie can neither leave the site
 * nor break the redirect after the login code was spent.
 */
export const RETURN_TO_FALLBACK = '/yun';

// A browser drops TAB, CR and LF inside a URL and reads `\` as `/`: `/\t/evil.test` and `/\evil.test` are
// `//evil.test`, a host. Such characters have no place in a path we emit, so they fail the check outright.
const UNSAFE = /[\u0000-\u001f\u007f\\]/;
const PROBE = 'http://return-to.invalid';

export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 2000 || UNSAFE.test(raw) || !raw.startsWith('/') || raw.startsWith('//')) return RETURN_TO_FALLBACK;
  let url: URL;
  try {
    url = new URL(raw, PROBE);
  } catch {
    return RETURN_TO_FALLBACK;
  }
  // the parser is the judge: whatever it resolves to another origin is another site
  if (url.origin !== PROBE) return RETURN_TO_FALLBACK;
  // emitted as the parser normalised it (percent-encoded, dot segments gone), so the Location header is plain ASCII
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (path.startsWith('//') || url.pathname.startsWith('/api/')) return RETURN_TO_FALLBACK;
  // a version page returns to an index path under /yun (spec section 2)
  if (url.pathname.startsWith('/yun/version/')) return '/yun/index';
  return path;
}
