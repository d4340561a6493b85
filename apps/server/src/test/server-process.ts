/** Test helper: the real server (`main.ts`) as a child process on free ports, for restart and crash tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export async function freePortPair(): Promise<number> {
  for (;;) {
    // below Linux's ephemeral range (32768–60999): a port found free there could be taken, before the server binds it,
    // by an outgoing connection of another test (PostgreSQL, Redis, fetch), which failed a CI run with EADDRINUSE
    const p = 10000 + Math.floor(Math.random() * 22000);
    const ok = await Promise.all([p, p + 1].map((port) => new Promise<boolean>((r) => {
      const s = net.createServer().once('error', () => r(false)).once('listening', () => s.close(() => r(true)));
      s.listen(port, '127.0.0.1');
    })));
    if (ok.every(Boolean)) return p;
  }
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** everything the process printed so far (stdout and stderr) */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The server from its TypeScript sources through tsx, as most tests run it (scripts/build.test.ts runs the compiled one). */
export const SERVER_FROM_SOURCES = ['--import', 'tsx', 'apps/server/src/main.ts'];

/**
 * `ready`: the line that says it is up (a worker, PROCESS_MODE=worker, prints its own and listens on no port).
 * `args`: what node runs (e.g. `['scripts/start.mjs']`, `npm start`'s compiled server; stop that one with SIGTERM,
 * which it passes on).
 */
export async function startServer(env: Record<string, string | undefined>, port?: number, ready = 'CADCloud is running', args = SERVER_FROM_SOURCES): Promise<ServerProcess> {
  const p = port ?? (await freePortPair());
  // the allocator settings `npm start` sets (scripts/malloc-env.mjs says why)
  const mallocEnv = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...mallocEnv, ...process.env, ...env, PORT: String(p) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const end = Date.now() + 60_000;
  while (!log.includes(ready)) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${p}`,
    port: p,
    child,
    output: () => log,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}
