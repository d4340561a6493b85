import { describe, expect, it } from 'vitest';
import { formatArea, formatLinear } from './linear-units.ts';

/** Issue 16 item 11: measuring shows lengths in the drawing's unit format ($LUNITS, $LUPREC), as AutoCAD's DIST does. */
describe('formatLinear', () => {
  it('scientific: LUPREC decimals, a signed two-digit exponent', () => {
    expect(formatLinear(15.5, { format: 1, precision: 4 })).toBe('1.5500E+01');
    expect(formatLinear(0.00125, { format: 1, precision: 2 })).toBe('1.25E-03');
    expect(formatLinear(-1234567, { format: 1, precision: 1 })).toBe('-1.2E+06');
  });
  it('decimal: LUPREC decimals with their trailing zeros', () => {
    expect(formatLinear(40, { format: 2, precision: 4 })).toBe('40.0000');
    expect(formatLinear(2.345678, { format: 2, precision: 2 })).toBe('2.35');
    expect(formatLinear(7.6, { format: 2, precision: 0 })).toBe('8');
    expect(formatLinear(-0.00001, { format: 2, precision: 4 })).toBe('0.0000');
    expect(formatLinear(-3.5, { format: 2, precision: 1 })).toBe('-3.5');
  });
  it('engineering: feet and decimal inches', () => {
    expect(formatLinear(15.5, { format: 3, precision: 4 })).toBe(`1'-3.5000"`);
    expect(formatLinear(0.25, { format: 3, precision: 2 })).toBe(`0'-0.25"`);
    expect(formatLinear(144, { format: 3, precision: 1 })).toBe(`12'-0.0"`);
    // rounds up into the next foot instead of writing 12 inches
    expect(formatLinear(11.99996, { format: 3, precision: 4 })).toBe(`1'-0.0000"`);
    expect(formatLinear(-15.5, { format: 3, precision: 1 })).toBe(`-1'-3.5"`);
  });
  it('architectural: feet, inches and a reduced fraction of 1/2^LUPREC inch', () => {
    expect(formatLinear(15.5, { format: 4, precision: 4 })).toBe(`1'-3 1/2"`);
    expect(formatLinear(15.5625, { format: 4, precision: 4 })).toBe(`1'-3 9/16"`);
    // 1/16 is the finest at precision 4: 3.03" rounds to 3"
    expect(formatLinear(3.03, { format: 4, precision: 4 })).toBe(`0'-3"`);
    expect(formatLinear(12, { format: 4, precision: 4 })).toBe(`1'-0"`);
    expect(formatLinear(0.5, { format: 4, precision: 4 })).toBe(`0'-0 1/2"`);
    // the fraction rounds up into the next inch and foot
    expect(formatLinear(11.99, { format: 4, precision: 3 })).toBe(`1'-0"`);
    expect(formatLinear(40, { format: 4, precision: 0 })).toBe(`3'-4"`);
  });
  it('fractional: whole units and a reduced fraction', () => {
    expect(formatLinear(15.5, { format: 5, precision: 4 })).toBe('15 1/2');
    expect(formatLinear(0.375, { format: 5, precision: 3 })).toBe('3/8');
    expect(formatLinear(0.375, { format: 5, precision: 2 })).toBe('1/2');
    expect(formatLinear(40, { format: 5, precision: 4 })).toBe('40');
    expect(formatLinear(-2.25, { format: 5, precision: 2 })).toBe('-2 1/4');
  });
  it('an unknown format or precision falls back to decimals', () => {
    expect(formatLinear(1.23456, { format: 6, precision: 3 })).toBe('1.235');
    expect(formatLinear(1.23456, { format: 2, precision: Number.NaN })).toBe('1.2346');
    expect(formatLinear(1.23456, { format: 2, precision: 99 })).toBe('1.23456000');
  });
});

describe('formatArea', () => {
  it('decimals in the format\'s precision, square feet beside square inches for the inch formats', () => {
    expect(formatArea(1200, { format: 2, precision: 2 })).toEqual({ area: '1200.00' });
    expect(formatArea(288, { format: 4, precision: 4 })).toEqual({ area: '288.0000', squareFeet: '2.0000' });
    expect(formatArea(360, { format: 3, precision: 2 })).toEqual({ area: '360.00', squareFeet: '2.50' });
    expect(formatArea(1200, { format: 1, precision: 2 })).toEqual({ area: '1.20E+03' });
  });
});
