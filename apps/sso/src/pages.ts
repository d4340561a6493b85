import { LANGUAGES, ssoText, type Language } from '@cadcloud/i18n';

type Key = Parameters<typeof ssoText>[1];

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One tidy page layout for every login-site screen; works at phone width. */
export function page(lang: Language, title: string, body: string, opts: { path?: string } = {}): string {
  const t = (k: Key) => esc(ssoText(lang, k));
  // The browser's own validation speaks the browser's language ("Please lengthen this text…" in a Chinese page):
  // forms are sent as they are and the site answers with its texts in the page's language (every rule the
  // attributes state, the server checks). The attributes stay for autofill, keyboards and screen readers.
  body = body.replace(/<form /g, '<form novalidate ');
  const switcher = LANGUAGES.map((l) => `<a href="${esc(`${opts.path ?? '?'}${(opts.path ?? '?').includes('?') ? '&' : '?'}lang=${l}`.replace('??', '?'))}" ${l === lang ? 'aria-current="true"' : ''}>${{ zh: '中文', en: 'English', ko: '한국어', de: 'Deutsch' }[l]}</a>`).join(' · ');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="manifest" href="/manifest.webmanifest"><title>${esc(title)} · ${t('title')}</title>
<style>
*{box-sizing:border-box}body{margin:0;font:15px/1.5 -apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;background:linear-gradient(135deg,#eef3fb,#f8fafc);color:#1f2937;min-height:100vh;display:flex;align-items:center;justify-content:center}
main{width:100%;max-width:400px;margin:16px;background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(15,40,80,.1);padding:28px}
h1{font-size:22px;margin:0 0 4px}.brand{color:#1677ff;font-weight:700;letter-spacing:.5px;margin-bottom:18px}
label{display:block;margin:14px 0 4px;font-size:13px;color:#4b5563}input{width:100%;padding:10px 12px;border:1px solid #d1d5db;border-radius:8px;font-size:15px}input:focus{outline:2px solid #91caff;border-color:#1677ff}
button{width:100%;margin-top:20px;padding:11px;border:0;border-radius:8px;background:#1677ff;color:#fff;font-size:15px;cursor:pointer}button:hover{background:#0958d9}
.err{background:#fff1f0;border:1px solid #ffccc7;color:#cf1322;padding:8px 12px;border-radius:8px;margin-top:12px}.ok{background:#f6ffed;border:1px solid #b7eb8f;color:#389e0d;padding:8px 12px;border-radius:8px;margin-top:12px}
.links{margin-top:16px;display:flex;justify-content:space-between;flex-wrap:wrap;gap:8px;font-size:13px}a{color:#1677ff;text-decoration:none}.langs{margin-top:22px;text-align:center;font-size:12px;color:#9ca3af}.langs a[aria-current]{font-weight:700}
</style></head><body><main><div class="brand">CADCloud</div><h1>${esc(title)}</h1>${body}<div class="langs">${switcher}</div></main></body></html>`;
}

export function field(lang: Language, name: string, label: Key, type = 'text', value = '', extra = '') {
  return `<label for="${name}">${esc(ssoText(lang, label))}</label><input id="${name}" name="${name}" type="${type}" value="${esc(value)}" ${extra}>`;
}

export function errorBox(lang: Language, code?: string) {
  return code ? `<div class="err" role="alert">${esc(ssoText(lang, `err.${code}` as Key))}</div>` : '';
}

export { esc };
