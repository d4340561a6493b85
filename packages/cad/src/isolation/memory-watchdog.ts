import { readFileSync } from 'node:fs';

/**
 * Resident memory of a process in MB, from /proc/<pid>/status (VmRSS); null where there is no /proc (not Linux) or
 * the process is gone. Real memory, whatever holds it: V8's heap, Buffers, WebAssembly memory, native allocations —
 * `--max-old-space-size` bounds only the first.
 */
export function processRssMb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export interface MemoryWatch {
  /** highest RSS seen (MB) */
  readonly peakMb: number;
  /** whether the watchdog ended the process for going over its limit */
  readonly killed: boolean;
  stop(): void;
}

/**
 * Samples a child process's RSS every `intervalMs` and kills it (SIGKILL: a process that is busy allocating does
 * not stop on request) as soon as it goes over `limitMb`, then calls `onKill` with what it saw. A hostile file can
 * grow LibreDWG's WebAssembly memory by hundreds of MB per second: 50 ms sampling overshoots by tens of MB at most.
 */
export function watchProcessMemory(child: { pid?: number; kill(signal: NodeJS.Signals): boolean }, limitMb: number, onKill: (rssMb: number) => void, intervalMs = 50): MemoryWatch {
  let peakMb = 0;
  let killed = false;
  const sample = () => {
    if (child.pid === undefined || killed) return;
    const rss = processRssMb(child.pid);
    if (rss === null) return;
    peakMb = Math.max(peakMb, rss);
    if (rss > limitMb) {
      killed = true;
      clearInterval(timer);
      child.kill('SIGKILL');
      onKill(rss);
    }
  };
  const timer = setInterval(sample, intervalMs);
  // the watch never keeps a finished program alive: the child's own handles decide that
  timer.unref();
  return {
    get peakMb() {
      return peakMb;
    },
    get killed() {
      return killed;
    },
    stop: () => clearInterval(timer),
  };
}
