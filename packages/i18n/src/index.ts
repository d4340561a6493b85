import { errors } from './locales/errors.ts';
import { sso } from './locales/sso.ts';
import { web } from './locales/web.ts';
import { viewer } from './locales/viewer.ts';
import { fonts } from './locales/fonts.ts';
import { compare } from './locales/compare.ts';
import { library } from './locales/library.ts';
import { shares } from './locales/shares.ts';
import { versions } from './locales/versions.ts';
import { groups } from './locales/groups.ts';
import { conversions } from './locales/conversions.ts';
import { unzip } from './locales/unzip.ts';
import { model3d } from './locales/model3d.ts';
import { model3dTasks } from './locales/model3d-tasks.ts';
import { pay } from './locales/pay.ts';
import { orders } from './locales/orders.ts';
import { invoices } from './locales/invoices.ts';
import { info } from './locales/info.ts';

export const LANGUAGES = ['zh', 'en', 'ko', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh';

export function normalizeLanguage(input: string | undefined | null): Language {
  const l = (input ?? '').toLowerCase().slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(l) ? (l as Language) : DEFAULT_LANGUAGE;
}

/** `{0}`, `{1}` placeholders as in the spec's messages. */
export function format(template: string, args: readonly (string | number)[] = []): string {
  return template.replace(/\{(\d+)\}/g, (m, i) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));
}

/** Server-side message lookup for an error key such as `errors.upload.tooLarge`. */
export function serverMessage(key: string, lang: Language, args?: readonly (string | number)[]): string {
  const k = key.startsWith('errors.') ? key.slice('errors.'.length) : key;
  const table = errors[lang] as Record<string, string>;
  const template = table[k] ?? (errors.en as Record<string, string>)[k] ?? key;
  return format(template, args);
}

export { errors, sso, web, viewer, fonts };
export { compare };
export { library };
export { shares };
export { versions };
export { groups };
export { conversions };
export { unzip };
export { model3d };
export { model3dTasks };
export { pay };
export { orders };
export { invoices };
export { info };

/** Login-site text lookup. */
export function ssoText(lang: Language, key: keyof (typeof sso)['en'], args?: readonly (string | number)[]): string {
  return format((sso[lang] as Record<string, string>)[key] ?? sso.en[key], args);
}
