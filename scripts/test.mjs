#!/usr/bin/env node
// `npm test`: every test. Makes sure the services the integration suites need are there first:
// PostgreSQL and Redis (start them when installed but stopped, install them with apt when missing and
// we are root), a signature-checking S3 server (OpenStack Swift with s3api, loopback only), and Debian's
// Chromium for the browser tests. When something cannot be provided the run stops with a message that
// says exactly how to provide it (in CI every suite is required; locally a missing service skips its suite).
import { spawnSync, execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CI = process.env.CI === 'true' || process.env.CI === '1';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const env = { ...process.env };
const problems = [];

function sh(cmd, opts = {}) {
  const r = spawnSync('bash', ['-c', cmd], { stdio: opts.quiet ? 'pipe' : 'inherit', encoding: 'utf8', cwd: root, env });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim() };
}
function portOpen(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    s.setTimeout(1000);
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
    s.once('timeout', () => { s.destroy(); resolve(false); });
  });
}
async function waitPort(port, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) { if (await portOpen(port)) return true; await new Promise((r) => setTimeout(r, 300)); }
  return false;
}
let aptUpdated = false;
function aptInstall(pkgs) {
  if (!isRoot) return false;
  if (!aptUpdated) { sh('apt-get update -qq >/dev/null 2>&1'); aptUpdated = true; }
  return sh(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkgs} >/tmp/cadcloud-apt.log 2>&1`).ok;
}

async function ensurePostgres() {
  if (env.TEST_POSTGRES_URL) return;
  if (!(await portOpen(5432))) {
    if (!existsSync('/etc/postgresql')) aptInstall('postgresql');
    if (existsSync('/etc/postgresql')) {
      const ver = readdirSync('/etc/postgresql')[0];
      sh(`pg_ctlcluster --skip-systemctl-redirect ${ver} main start || pg_ctlcluster ${ver} main start`, { quiet: true });
      // a freshly installed cluster has no `test` database yet
      sh(`su postgres -c "psql -tc \\"select 1 from pg_database where datname='test'\\" | grep -q 1 || createdb test"`, { quiet: true });
    }
  }
  if (await waitPort(5432, 15000)) env.TEST_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
  else problems.push('PostgreSQL: not reachable on 127.0.0.1:5432. Install it (apt-get install postgresql) and start it (pg_ctlcluster 15 main start), or set TEST_POSTGRES_URL.');
}
async function ensureRedis() {
  if (env.TEST_REDIS_URL) return;
  if (!(await portOpen(6379))) {
    if (!sh('command -v redis-server', { quiet: true }).ok) aptInstall('redis-server');
    sh(`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no`, { quiet: true });
  }
  if (await waitPort(6379, 10000)) env.TEST_REDIS_URL = 'redis://127.0.0.1:6379';
  else problems.push('Redis: not reachable on 127.0.0.1:6379. Install it (apt-get install redis-server) and start it (redis-server --daemonize yes --port 6379), or set TEST_REDIS_URL.');
}
function ensureS3() {
  if (env.TEST_S3_ENDPOINT) return;
  if (!isRoot && !sh('command -v swift-ring-builder', { quiet: true }).ok) {
    problems.push('S3: the signature-checking test server needs OpenStack Swift: run `sudo bash scripts/s3-swift.sh start` and export the TEST_S3_* variables it implies, or set TEST_S3_ENDPOINT to an S3-compatible server.');
    return;
  }
  const r = sh('bash scripts/s3-swift.sh start /tmp/cadcloud-s3', { quiet: true });
  const line = r.out.split('\n').find((l) => l.startsWith('S3_ENDPOINT='));
  if (!r.ok || !line) { problems.push('S3: scripts/s3-swift.sh start failed (see /tmp/s3-swift-apt.log and /tmp/cadcloud-s3/run/proxy.log).'); return; }
  for (const kv of line.split(' ')) { const [k, v] = kv.split('='); env[`TEST_${k}`] = v; }
}
function ensureChromium() {
  if (env.CHROMIUM_PATH && existsSync(env.CHROMIUM_PATH)) return;
  if (!existsSync('/usr/bin/chromium')) aptInstall('chromium');
  if (existsSync('/usr/bin/chromium')) env.CHROMIUM_PATH = '/usr/bin/chromium';
  else problems.push("Chromium: the browser tests need Debian's chromium at /usr/bin/chromium: run `apt-get install chromium` (or set CHROMIUM_PATH).");
}
// ezdxf's drawing add-on is the independent renderer of the fidelity test (packages/cad/src/fidelity/ezdxf-reference.test.ts)
function ensureEzdxf() {
  const py = env.EZDXF_PYTHON ?? '/usr/bin/python3';
  const have = () => existsSync(py) && spawnSync(py, ['-c', 'import ezdxf, matplotlib'], { stdio: 'ignore' }).status === 0;
  if (have()) return;
  aptInstall('python3-ezdxf python3-matplotlib');
  if (!have()) problems.push("ezdxf: the fidelity test needs Debian's python3-ezdxf and python3-matplotlib: run `apt-get install python3-ezdxf python3-matplotlib` (or set EZDXF_PYTHON to a python3 that has them).");
}

console.log('[test] preparing services …');
await Promise.all([ensurePostgres(), ensureRedis()]);
ensureS3();
ensureChromium();
ensureEzdxf();
if (problems.length) {
  console.error(`[test] missing services:\n  - ${problems.join('\n  - ')}`);
  if (CI) process.exit(1);
  console.error('[test] continuing: the suites that need them are skipped.');
}

const only = process.argv.slice(2);
const runs = [
  ['unit and integration', ['vitest', 'run', ...only]],
  ['browser', ['vitest', 'run', '--config', 'e2e/vitest.config.ts']],
];
let failed = false;
const totals = { passed: 0, failed: 0, skipped: 0 };
const reportDir = mkdtempSync(path.join(tmpdir(), 'cadcloud-test-'));
// once, before every runner: the compiled build is what scripts/build.test.ts runs and the browser tests' web app
// (only what is missing or older than its sources)
console.log('[test] building (npm run build, what is stale) …');
const built = sh('node scripts/build.mjs --if-stale').ok;
if (!built) failed = true;
for (const [label, args] of runs) {
  if (!built) break;
  if (label === 'browser' && (only.length || !existsSync(path.join(root, 'e2e/vitest.config.ts')))) continue;
  console.log(`[test] ${label} tests`);
  const report = path.join(reportDir, `${label.replace(/\W+/g, '-')}.json`);
  const r = spawnSync('npx', [...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { stdio: 'inherit', cwd: root, env });
  if (r.status !== 0) failed = true;
  try {
    const j = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += j.numPassedTests;
    totals.failed += j.numFailedTests;
    totals.skipped += j.numPendingTests + (j.numTodoTests ?? 0);
  } catch {
    failed = true;
    totals.failed += 1;
  }
}
// one plain closing line for every runner together
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failed || totals.passed === 0 ? 1 : 0);
