import { describe, expect, it } from 'vitest';
import { conversionOptionsSchema } from '@cadcloud/contracts';
import { engineOptions } from './conversions.service.ts';

describe('conversion options → engine options', () => {
  it("passes a picture's area (the viewer's current view) through, and refuses an empty or inverted one", () => {
    const area = { minX: -10.5, minY: 0, maxX: 200, maxY: 80.25 };
    const o = conversionOptionsSchema.parse({ width: 800, area });
    expect(engineOptions(o, null)).toMatchObject({ width: 800, area });
    expect(engineOptions(conversionOptionsSchema.parse({}), null)).not.toHaveProperty('area');
    expect(conversionOptionsSchema.safeParse({ area: { minX: 5, minY: 0, maxX: 5, maxY: 1 } }).success).toBe(false);
    expect(conversionOptionsSchema.safeParse({ area: { minX: 0, minY: 0, maxX: 1 } }).success).toBe(false);
  });

  it("passes a PDF's plot scale 1:N to the engine (alone or with pages), and refuses a scale that is not positive", () => {
    expect(engineOptions(conversionOptionsSchema.parse({ scale: 50 }), null).pdf).toEqual({ pages: undefined, stack: undefined, calibrate: undefined, scale: 50 });
    expect(engineOptions(conversionOptionsSchema.parse({ pages: [2], scale: 100 }), null).pdf).toMatchObject({ pages: [2], scale: 100 });
    expect(engineOptions(conversionOptionsSchema.parse({}), null)).not.toHaveProperty('pdf');
    for (const scale of [0, -5, 'x']) expect(conversionOptionsSchema.safeParse({ scale }).success, String(scale)).toBe(false);
  });
});
