// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { COMPANY_HEADER_KEY, loadCompanyHeader, saveCompanyHeader } from './company-header.ts';

describe('the company header in browser storage (spec section 3)', () => {
  const h = { companyName: 'Acme', titleId: 't1', utoken: 'tag-a', clientType: 'Web_PC' };
  beforeEach(() => localStorage.clear());

  it('is read back under the same ticket and client type', () => {
    saveCompanyHeader(h);
    expect(loadCompanyHeader({ utoken: 'tag-a', clientType: 'Web_PC' })).toEqual(h);
    expect(localStorage.getItem(COMPANY_HEADER_KEY)).not.toBeNull();
  });
  it('is discarded when the ticket differs', () => {
    saveCompanyHeader(h);
    expect(loadCompanyHeader({ utoken: 'tag-b', clientType: 'Web_PC' })).toBeNull();
    expect(localStorage.getItem(COMPANY_HEADER_KEY)).toBeNull();
    // and stays gone when the first ticket comes back
    expect(loadCompanyHeader({ utoken: 'tag-a', clientType: 'Web_PC' })).toBeNull();
  });
  it('is discarded when the client type differs', () => {
    saveCompanyHeader(h);
    expect(loadCompanyHeader({ utoken: 'tag-a', clientType: 'Web_H5' })).toBeNull();
    expect(localStorage.getItem(COMPANY_HEADER_KEY)).toBeNull();
  });
  it('is discarded without a ticket, or when unreadable', () => {
    saveCompanyHeader(h);
    expect(loadCompanyHeader({ utoken: null, clientType: 'Web_PC' })).toBeNull();
    localStorage.setItem(COMPANY_HEADER_KEY, '{not json');
    expect(loadCompanyHeader({ utoken: 'tag-a', clientType: 'Web_PC' })).toBeNull();
    expect(localStorage.getItem(COMPANY_HEADER_KEY)).toBeNull();
  });
});
