import { BlockList, isIP } from 'node:net';

/**
 * Which peers may speak for a client through X-Forwarded-For / -Proto / -Host: the reverse proxies the
 * operator lists in TRUSTED_PROXIES, nobody else. Everything that counts attempts per client (sign-in
 * lockout, share codes) stands on this, so a forged header from anyone else is not believed.
 */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** One entry of TRUSTED_PROXIES: an address, a CIDR block or a name (loopback, private); null when it is none. */
export function parseProxyEntry(entry: string): string[] | null {
  const e = entry.trim().toLowerCase();
  if (NAMED[e]) return NAMED[e];
  const [addr, bits, ...rest] = e.split('/');
  const family = isIP(addr);
  if (!family || rest.length) return null;
  if (bits === undefined) return [addr];
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)) return null;
  return [`${addr}/${bits}`];
}

/** `::ffff:10.0.0.1` is the IPv4 peer 10.0.0.1 on a dual-stack socket. */
export function plainAddress(addr: string | undefined): string | undefined {
  if (!addr) return undefined;
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  return m ? m[1] : addr;
}

/** A predicate for Fastify's `trustProxy` and the login site: is this peer one of the configured proxies? */
export function createProxyTrust(entries: readonly string[]): (address: string) => boolean {
  if (!entries.length) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    for (const block of parseProxyEntry(entry) ?? []) {
      const [addr, bits] = block.split('/');
      const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(addr, type);
      else list.addSubnet(addr, Number(bits), type);
    }
  }
  return (address) => {
    const a = plainAddress(address);
    const family = a ? isIP(a) : 0;
    return !!a && !!family && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
}
