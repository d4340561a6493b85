import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.ts';

describe('clientKey', () => {
  it('keeps IPv4 addresses, folds IPv4-mapped ones, and groups IPv6 by /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:0db8:0001:0002::/64');
    expect(clientKey('2001:db8:1:2:ffff:eeee:dddd:cccc')).toBe('2001:0db8:0001:0002::/64');
    expect(clientKey('2001:DB8:1:2::abcd%eth0')).toBe('2001:0db8:0001:0002::/64');
    expect(clientKey('::1')).toBe('0000:0000:0000:0000::/64');
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('0064:ff9b:0000:0000::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });
});
