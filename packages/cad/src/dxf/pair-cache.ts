import type { Pair } from '../model/drawing.ts';

const SMALL_INTS = 256;
const MAX_STRINGS_PER_CODE = 4096;
const MAX_SHARED_LENGTH = 40;

/**
 * Shares the [code, value] tuples that repeat across a drawing: subclass markers, layers, owners, flags, a zero
 * elevation. A large drawing holds millions of pairs and most of them are these; one shared tuple each instead of
 * one per entity is most of the model's memory. Pairs are readonly (see `Pair`), so sharing cannot be observed.
 * Handles (5, 105) and free text (1) are unique or nearly so and are never shared; each code keeps at most
 * MAX_STRINGS_PER_CODE strings, so a file of distinct names cannot grow the cache without bound.
 */
export function createPairCache() {
  const ints: (Pair[] | undefined)[] = [];
  const strings: (Map<string, Pair> | undefined)[] = [];
  return {
    get(code: number, value: string | number): Pair {
      if (code < 0 || code >= 1072) return [code, value];
      if (typeof value === 'number') {
        // -0 is not 0 to Object.is: never handed out as the shared 0
        if (value >= 0 && value < SMALL_INTS && (value | 0) === value && (value !== 0 || 1 / value > 0)) {
          const row = (ints[code] ??= []);
          return (row[value] ??= [code, value]);
        }
        return [code, value];
      }
      if (code === 5 || code === 105 || code === 1 || value.length > MAX_SHARED_LENGTH) return [code, value];
      let m = strings[code];
      if (!m) strings[code] = m = new Map();
      let t = m.get(value);
      if (t === undefined) {
        t = [code, value];
        if (m.size < MAX_STRINGS_PER_CODE) m.set(value, t);
      }
      return t;
    },
  };
}
