/** Test helper: a browser in miniature, a cookie jar per host and manual redirects, so every hop is visible. */
export class Browser {
  jar = new Map<string, Map<string, string>>();
  /** every Set-Cookie header seen, as sent */
  setCookies: string[] = [];
  constructor(readonly headers: Record<string, string> = { 'accept-language': 'en' }) {}

  cookies(url: string) {
    return this.jar.get(new URL(url).host) ?? new Map<string, string>();
  }
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies(url)].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...this.headers, ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    const host = new URL(url).host;
    const jar = this.jar.get(host) ?? new Map();
    for (const c of res.headers.getSetCookie()) {
      this.setCookies.push(c);
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const [k, v] = [pair.slice(0, i).trim(), pair.slice(i + 1).trim()];
      if (attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a)) || v === '') jar.delete(k);
      else jar.set(k, v);
    }
    this.jar.set(host, jar);
    return res;
  }
  /** Follows redirects; returns the last response, the URL it came from and every hop. */
  async go(url: string, init: RequestInit = {}): Promise<{ res: Response; url: string; hops: string[] }> {
    const hops: string[] = [];
    let res = await this.request(url, init);
    while (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      url = new URL(res.headers.get('location')!, url).href;
      hops.push(url);
      res = await this.request(url);
    }
    return { res, url, hops };
  }
  form(url: string, fields: Record<string, string>) {
    return this.go(url, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
}
