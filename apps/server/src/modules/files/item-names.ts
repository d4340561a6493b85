import { extensionOf, isValidItemName } from '@cadcloud/contracts';
import { appError } from '../../infra/http/app-error.ts';

/** Trims and validates a user-given name (section 5); path parts such as `../` never pass. */
export function checkName(name: string): string {
  const n = (name ?? '').trim();
  if (!isValidItemName(n)) throw appError('name.invalid');
  return n;
}

/** "plan.dwg" → "plan (1).dwg", "plan (2).dwg" … the first that is free. */
export function nextFreeName(name: string, taken: Set<string>, isFolder: boolean): string {
  if (!taken.has(name)) return name;
  const ext = isFolder ? '' : extensionOf(name);
  const stem = ext ? name.slice(0, -(ext.length + 1)) : name;
  for (let i = 1; ; i++) {
    const candidate = ext ? `${stem} (${i}).${ext}` : `${stem} (${i})`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function stemOf(name: string, isFolder: boolean): string {
  const ext = isFolder ? '' : extensionOf(name);
  return ext ? name.slice(0, -(ext.length + 1)) : name;
}
