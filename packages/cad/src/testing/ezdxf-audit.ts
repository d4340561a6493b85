import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Whether Debian's python3-ezdxf is there to audit written DXF files (tests skip the audit, with a warning, without it). */
export const hasEzdxf = spawnSync('/usr/bin/python3', ['-c', 'import ezdxf'], { encoding: 'utf8' }).status === 0;

const AUDIT = `
import sys
from ezdxf import recover
doc, a = recover.readfile(sys.argv[1])
b = doc.audit()
print('ERRORS', len(a.errors) + len(b.errors))
for e in a.errors + b.errors: print(e.code, e.message)
`;

let dir: string | undefined;

/** ezdxf's recover + audit of a written file: its errors (none when ezdxf is not installed) */
export function ezdxfErrors(bytes: Uint8Array, name: string): string[] {
  if (!hasEzdxf) return [];
  dir ??= mkdtempSync(path.join(os.tmpdir(), 'cadcloud-ezdxf-'));
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  const r = spawnSync('/usr/bin/python3', ['-c', AUDIT, file], { encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) return [`ezdxf failed (${r.status ?? r.signal}): ${r.stderr.slice(-400)}`];
  return r.stdout.trim().split('\n').slice(1);
}
