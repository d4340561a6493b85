import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * This server process among all that share a DATA_DIR. Its temp files carry its id in their names, and a lease
 * file (DATA_DIR/instances/<id>.json, touched while it runs) says it is alive, so any process can tell a temp
 * file some live process is still writing from one a killed process left behind.
 */
export const INSTANCE_ID = randomBytes(6).toString('hex');

const LEASE_RENEW_MS = 10_000;
/** a lease not renewed for this long is a dead process's (other hosts: the only sign we have) */
const LEASE_STALE_MS = 60_000;
const leasesDir = (dataDir: string) => path.join(dataDir, 'instances');

/** A temp file name owned by this process: `i<instance>-<ms>-<random><suffix>`. */
export function instanceTempName(suffix = '', label = ''): string {
  return `i${INSTANCE_ID}-${label ? `${label}-` : ''}${Date.now()}-${randomBytes(6).toString('hex')}${suffix}`;
}

/** The instance that owns a temp file, or null for a name without one (older versions, upload sessions). */
export function ownerOfTempName(name: string): string | null {
  return /^i([0-9a-f]{12})-/.exec(name)?.[1] ?? null;
}

export interface Lease {
  id: string;
  host: string;
  pid: number;
  startedAt: number;
}

/** Writes this process's lease and renews it until `stop()` (which removes it: a clean exit leaves nothing). */
export async function startInstanceLease(dataDir: string): Promise<{ stop(): Promise<void> }> {
  const file = path.join(leasesDir(dataDir), `${INSTANCE_ID}.json`);
  await fsp.mkdir(leasesDir(dataDir), { recursive: true });
  const lease: Lease = { id: INSTANCE_ID, host: hostname(), pid: process.pid, startedAt: Date.now() };
  await fsp.writeFile(file, JSON.stringify(lease));
  const timer = setInterval(() => {
    const now = new Date();
    // recreated if someone removed it while we still run
    void fsp.utimes(file, now, now).catch(() => fsp.writeFile(file, JSON.stringify(lease)).catch(() => undefined));
  }, LEASE_RENEW_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await fsp.rm(file, { force: true });
    },
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, it is just not ours to signal
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The instances alive now. On this host a lease's process is asked directly (a server killed and restarted at
 * once left a fresh lease); on another host only a lease renewed within the last minute counts. Leases of the
 * dead are removed.
 */
export async function liveInstances(dataDir: string, now = Date.now()): Promise<Set<string>> {
  const live = new Set<string>([INSTANCE_ID]);
  for (const l of await liveInstanceLeases(dataDir, now)) live.add(l.id);
  return live;
}

/** The leases of the instances alive now (this process's only if it holds one), by the rules of liveInstances. */
export async function liveInstanceLeases(dataDir: string, now = Date.now()): Promise<Lease[]> {
  const live: Lease[] = [];
  const dir = leasesDir(dataDir);
  const host = hostname();
  for (const f of await fsp.readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, f);
    const [st, text] = await Promise.all([fsp.stat(file).catch(() => null), fsp.readFile(file, 'utf8').catch(() => '')]);
    let lease: Lease | null = null;
    try {
      lease = JSON.parse(text) as Lease;
    } catch {
      // a lease being written this instant: judged by its age alone
    }
    const fresh = !!st && now - st.mtimeMs < LEASE_STALE_MS;
    const alive = lease?.host === host && lease.id !== INSTANCE_ID ? processAlive(lease.pid) && fresh : fresh;
    if (alive && lease) live.push(lease);
    else if (!alive && st) await fsp.rm(file, { force: true });
  }
  return live;
}

/**
 * Removes the files of `dir` that nobody alive owns: a name with a dead (or no longer leased) instance, and,
 * through `orphan`, whatever else the caller knows to be unowned (an upload session's part without its session).
 * Folders are removed only by their owner's name (a decompression's unpacked files: `mkdtemp(instanceTempName(…))`).
 */
export async function sweepOrphanTemp(dir: string, live: Set<string>, orphan: (name: string, ageMs: number) => boolean): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    const st = await fsp.stat(path.join(dir, name)).catch(() => null);
    if (!st) continue;
    const owner = ownerOfTempName(name);
    if (st.isDirectory() ? !owner || live.has(owner) : !st.isFile() || (owner ? live.has(owner) : !orphan(name, Date.now() - st.mtimeMs))) continue;
    await fsp.rm(path.join(dir, name), { force: true, recursive: st.isDirectory() });
    removed.push(name);
  }
  return removed;
}
