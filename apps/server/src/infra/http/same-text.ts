import { timingSafeEqual } from 'node:crypto';

/** Constant-time text comparison (codes, passwords, MACs): how long it takes says nothing about how much matched. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
