import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../admin/admin.cli.ts';
import { createDatabase } from '../infra/db/db.ts';
import { startServer, type ServerProcess } from './server-process.ts';

/**
 * The SIGKILL tests' set-up (conversions, decompression, 3D): the real server process on a SQLite data folder of its
 * own, with a short job lease so a killed process's job is taken again within seconds, one user signed in by
 * token, and the database open beside it to watch jobs and rows. `killAndRestart` is the crash itself.
 */
export function crashTestServer(label: string, user: { email: string; vipType?: number }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `cadcloud-${label}-`));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', JOB_LEASE_MS: '2000' };
  const password = 'crash password';
  let server: ServerProcess | undefined;
  let token = '';
  const url = () => server!.url;
  return {
    db: createDatabase(`sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`),
    async start() {
      await runAdmin(['user', 'create', '--email', user.email, '--password', password], env);
      if (user.vipType) await runAdmin(['user', 'vip', '--email', user.email, '--type', String(user.vipType)], env);
      server = await startServer(env);
      const r = await (await fetch(`${url()}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: user.email, password } }), headers: { 'content-type': 'application/json' } })).json();
      token = r.data.token;
    },
    async api(p: string, data: unknown) {
      return (await fetch(`${url()}${p}?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();
    },
    async upload(name: string, bytes: Uint8Array) {
      const form = new FormData();
      form.set('filedata', new Blob([new Uint8Array(bytes)]), name);
      return (await (await fetch(`${url()}/cloud/v5/file/upload?utoken=${token}`, { method: 'POST', body: form })).json()).bizData;
    },
    /** SIGKILL, then the server again on the same port and data */
    async killAndRestart() {
      await server!.kill('SIGKILL');
      server = await startServer(env, server!.port);
    },
    async stop() {
      await server?.kill();
      await this.db.destroy();
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}
