import { describe, expect, it } from 'vitest';
import { errors, sso, web, viewer, fonts, LANGUAGES } from './index.ts';
import { ERRORS } from '@cadcloud/contracts';
import { versions } from './index.ts';
import { conversions } from './index.ts';
import { compare } from './index.ts';
import { unzip } from './index.ts';
import { model3d } from './index.ts';
import { model3dTasks } from './index.ts';
import { pay } from './index.ts';
import { orders } from './index.ts';
import { invoices } from './index.ts';
import { INVOICE_STATUS_NAMES } from '@cadcloud/contracts';
import { info } from './index.ts';
import { MODEL3D_STAGES } from '@cadcloud/contracts';

describe('locales', () => {
  for (const [ns, table] of Object.entries({ errors, sso, web, viewer, fonts, versions, compare, conversions, unzip, model3d, model3dTasks, pay, orders, invoices, info })) {
    it(`${ns}: every language has every key, none empty`, () => {
      const keys = Object.keys(table.en).sort();
      for (const lang of LANGUAGES) {
        const t = (table as Record<string, Record<string, string>>)[lang];
        expect(Object.keys(t).sort(), `${ns}.${lang}`).toEqual(keys);
        for (const k of keys) expect(t[k].trim(), `${ns}.${lang}.${k}`).not.toBe('');
      }
    });
  }
  it('model3dTasks names every stage a 3D conversion reports', () => {
    for (const stage of MODEL3D_STAGES) expect((model3dTasks.en as Record<string, string>)[`stage.${stage}`], stage).toBeTruthy();
  });
  it('invoices names every invoice status', () => {
    for (const name of Object.values(INVOICE_STATUS_NAMES)) expect((invoices.en as Record<string, string>)[`status.${name}`], name).toBeTruthy();
  });
  it('every server error code has a message', () => {
    for (const { key } of Object.values(ERRORS)) expect((errors.en as Record<string, string>)[key.replace(/^errors\./, '')], key).toBeTruthy();
  });
});
