import { isIPv4, isIPv6 } from 'node:net';

/**
 * Who "one client" is for the limits that count attempts (sign-in lockout, share codes): an IPv4 address, or the
 * /64 network of an IPv6 address (one subscriber usually holds a whole /64 and could otherwise take a fresh
 * address for every guess). An IPv4-mapped address is its IPv4 address.
 */
export function clientKey(ip: string | undefined): string {
  const v = (ip ?? '').trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(v);
  if (mapped) return mapped[1];
  if (isIPv4(v)) return v;
  if (!isIPv6(v)) return v || 'unknown';
  const [head, tail] = v.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':') : []).flatMap((g) => (isIPv4(g) ? ipv4Groups(g) : [g]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${all.slice(0, 4).map((g) => g.padStart(4, '0')).join(':')}::/64`;
}

function ipv4Groups(v4: string): string[] {
  const [a, b, c, d] = v4.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
