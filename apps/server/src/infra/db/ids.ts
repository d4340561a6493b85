import { randomBytes } from 'node:crypto';

/** Random URL-safe id (20 chars, 120 bits): unguessable, so ids never leak other users' items by counting. */
export function newId(): string {
  return randomBytes(15).toString('base64url');
}
