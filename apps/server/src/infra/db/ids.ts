import { randomBytes } from 'node:crypto';

/** Random URL-safe id (20 chars, 120 bits): unguessable, so ids never leak other users' items by counting. */
export function newId(): string {
  const id = randomBytes(15).toString('base64url');
  // never a leading '-': the admin CLI takes ids as arguments, and its parser reads "-6abc…" as an unknown option
  return id[0] === '-' ? `A${id.slice(1)}` : id;
}
