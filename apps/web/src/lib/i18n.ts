import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { web, viewer, fonts, LANGUAGES, DEFAULT_LANGUAGE, normalizeLanguage, type Language } from '@cadcloud/i18n';
import { library } from '@cadcloud/i18n';
import { shares } from '@cadcloud/i18n';
import { compare } from '@cadcloud/i18n';
import { versions } from '@cadcloud/i18n';
import { groups } from '@cadcloud/i18n';
import { conversions } from '@cadcloud/i18n';
import { unzip } from '@cadcloud/i18n';
import { model3d, model3dTasks } from '@cadcloud/i18n';
import { pay } from '@cadcloud/i18n';
import { invoices } from '@cadcloud/i18n';
import { info, errors } from '@cadcloud/i18n';

const STORAGE_KEY = 'cadcloud.lang';

function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY);
  return saved ? normalizeLanguage(saved) : DEFAULT_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { web: web[l], viewer: viewer[l], fonts: fonts[l] }])),
  lng: initialLanguage(),
  fallbackLng: 'en',
  defaultNS: 'web',
  ns: ['web', 'viewer', 'fonts'],
  interpolation: { escapeValue: false },
  keySeparator: false,
  returnNull: false,
});

// the information pages (feedback, contact, declaration, quick start, phone account center)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'info', info[l]);
// the server's error texts, for checks the browser makes before sending (the same messages the server would answer)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'errors', errors[l]);
// the shares namespace (share dialog, /yun/share, share pages)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'shares', shares[l]);
// the groups namespace (/yun/group, /webH5/group, the invitation page)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'groups', groups[l]);

// the public library namespace (/yun/public, myPublic, myCollection, myLike, the public-drawing dialog)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'library', library[l]);

// the version history namespace (/yun/version/{fileId})
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'versions', versions[l]);

// the conversion namespace (transform dialog, task panel tab, /yun/transformer)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'conversions', conversions[l]);

// the decompression namespace (Decompress action, same-name and password dialogs, the task panel's unzip tab)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'unzip', unzip[l]);

// the 3D namespace (/view3d, the drive's Convert to 3D / Open 3D)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'model3d', model3d[l]);
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'model3dTasks', model3dTasks[l]);

// the membership and payment namespace (/upgrade, pay dialogs, /yun/order, /yun/coupon, /secure/products, freeze)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'pay', pay[l]);
// the invoice namespace (/invoice/…: company, titles, invoices)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'invoices', invoices[l]);

// the drawing compare namespace (/yun/version/:fileId/compare)
for (const l of LANGUAGES) i18n.addResourceBundle(l, 'compare', compare[l]);

document.documentElement.lang = initialLanguage();

export function currentLanguage(): Language {
  return normalizeLanguage(i18n.language);
}

export function setLanguage(lang: Language) {
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

export const LANGUAGE_NAMES: Record<Language, string> = { zh: '中文', en: 'English', ko: '한국어', de: 'Deutsch' };
export { i18n, LANGUAGES };
