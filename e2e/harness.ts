import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const root = path.resolve(import.meta.dirname, '..');
export const samplesDir = path.resolve(root, process.env.SAMPLES_DIR ?? '../shared/samples');
export const artifacts = path.join(root, 'e2e/artifacts');

async function freePort(): Promise<number> {
  for (;;) {
    // below Linux's ephemeral range (32768–60999), where outgoing connections could take the port before it is bound
    const port = 10000 + Math.floor(Math.random() * 22000);
    const ok = await Promise.all([port, port + 1].map((p) => new Promise<boolean>((r) => {
      const s = net.createServer().once('error', () => r(false)).once('listening', () => s.close(() => r(true)));
      s.listen(p, '127.0.0.1');
    })));
    if (ok.every(Boolean)) return port;
  }
}

/** The settings of each product started here, by its address (its database holds the mail outbox). */
const productEnvs = new Map<string, Record<string, string | undefined>>();

/** The real product (API + web + login site) as `npm start` runs it, on a temp data folder; `env` adds settings (e.g. larger limits for benchmarks). */
export async function startProduct(env: Record<string, string> = {}): Promise<{ url: string; dataDir: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: root, env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  // keep the server's output next to the screenshots: a crash mid-test is otherwise invisible
  child.on('exit', (code, signal) => {
    log += `\n[server exited: code ${code}, signal ${signal}]\n`;
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(path.join(artifacts, 'server.log'), log);
  });
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  while (!log.includes('CADCloud is running')) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  productEnvs.set(url, { ...process.env, ...env, DATA_DIR: dataDir });
  return {
    url,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's Chromium. Every page it opens is watched for Content-Security-Policy violations (the product's
 * policy, infra/http/security-headers.ts) and for WebGL errors and warnings: closing the browser fails the test that
 * saw one, so a policy that breaks the app (or an app change the policy forbids), or a GL call the driver refuses,
 * shows up in the browser tests.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: apt-get install chromium (npm test does it when run as root)`);
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const violations: string[] = [];
  const webgl: string[] = [];
  const watched = new WeakSet<BrowserContext>();
  const watch = (context: BrowserContext) => {
    if (watched.has(context)) return;
    watched.add(context);
    context.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(`${m.location().url}: ${m.text()}`);
      // any WebGL error or warning (Chromium logs them as warnings: "[.WebGL-…]GL_INVALID_OPERATION: glDrawArrays: …",
      // "WebGL: too many errors"): the viewer's drawing is wrong somewhere, even when the pixels look right
      // (a test that reads the canvas back causes "GPU stall due to ReadPixels", a driver performance note: not the viewer's)
      if ((m.type() === 'error' || m.type() === 'warning') && isWebGlMessage(m.text()) && !/GPU stall due to ReadPixels/.test(m.text())) webgl.push(`${m.location().url}: ${m.text()}`);
    });
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    watch(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    watch(page.context());
    return page;
  };
  const close = browser.close.bind(browser);
  browser.close = async (...args) => {
    await close(...args);
    if (violations.length) throw new Error(`pages broke the Content-Security-Policy:\n${violations.join('\n')}`);
    if (webgl.length) throw new Error(`pages logged WebGL errors or warnings (${webgl.length}):\n${webgl.slice(0, 20).join('\n')}`);
  };
  return browser;
}

/** A console message of the GPU stack: WebGL's own, or a GL error Chromium reports for a WebGL call. */
export function isWebGlMessage(text: string): boolean {
  return /WebGL|GL_INVALID|GL ERROR|glDraw|texture format|sampler type/i.test(text);
}

export async function shoot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true }).catch(() => undefined);
}

/**
 * Opens `path` signed out, lands on the separate login site, registers a new account there, opens the link the
 * login site mailed (read from the outbox, as the user reads their mailbox) and comes back to `path` signed in
 * (password "correct horse").
 */
export async function registerThroughLoginSite(page: Page, productUrl: string, path: string, email: string, name: string) {
  await page.goto(`${productUrl}${path}`);
  await page.waitForURL(/\/interaction\//);
  await page.click('a[href$="/register"]');
  await page.fill('#email', email);
  await page.fill('#name', name);
  await page.fill('#password', 'correct horse');
  await page.fill('#confirm', 'correct horse');
  await page.click('button[type=submit]');
  await openRegistrationMail(page, productUrl, email);
  await page.waitForURL(`${productUrl}${path}`);
}

/**
 * After the registration form was sent: waits for the login site's "we have sent a message" and opens the link of
 * that mail in the same page, which creates the account and goes on with the sign-in.
 */
export async function openRegistrationMail(page: Page, productUrl: string, email: string) {
  await page.locator('.ok').waitFor();
  await page.goto(await registrationLink(productUrl, email));
}

/** The link of the registration mail sent to `email` by the product at `productUrl`. */
async function registrationLink(productUrl: string, email: string): Promise<string> {
  const env = productEnvs.get(productUrl);
  if (!env) throw new Error(`no product started at ${productUrl}`);
  const { runAdmin } = await import('../apps/server/src/admin/admin.cli.ts');
  const end = Date.now() + 10_000;
  for (;;) {
    const outbox = (await runAdmin(['mail', 'outbox', '--limit', '200'], env)) as { to: string; text: string }[];
    const link = /(http\S+\/confirm\?token=\S+)/.exec(outbox.find((m) => m.to === email.toLowerCase())?.text ?? '')?.[1];
    if (link) return link;
    if (Date.now() > end) throw new Error(`no registration mail to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Clicks OK in a confirmation once its opening animation is over: under load a click during the zoom-in
 * can land beside the moving button.
 */
export async function confirmOk(p: Page, label: string | RegExp = /确\s*定/) {
  const dialog = p.locator('.ant-modal-confirm');
  await dialog.waitFor();
  await p.waitForFunction(() => !document.querySelector('.ant-modal-confirm [class*="-appear"], .ant-modal-confirm[class*="-appear"], .ant-modal-confirm[class*="-enter"]'));
  await dialog.getByRole('button', { name: label }).click();
  await dialog.waitFor({ state: 'hidden' });
}
