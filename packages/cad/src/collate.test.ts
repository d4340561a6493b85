import { describe, expect, it } from 'vitest';
import { collate } from './collate.ts';

const sign = (n: number) => Math.sign(n);

describe('collate', () => {
  it('orders as localeCompare does: random names of letters, digits, spaces and punctuation', () => {
    const alphabet = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCxXyYzZ';
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const word = () => Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    const names = Array.from({ length: 400 }, word).concat(['a', 'A', 'a_', 'A1', 'a1', 'ab', 'Aa', 'AB', 'aB', 'Ab', 'abc', 'ABC', 'archquik.shx', 'arial.ttf', 'AMGDT']);
    let compared = 0;
    const wrong: string[] = [];
    for (const a of names) for (const b of names) {
      if (sign(collate(a, b)) !== sign(a.localeCompare(b))) wrong.push(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      compared++;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(compared).toBeGreaterThan(100_000);
  });

  it('hands other characters to localeCompare', () => {
    for (const [a, b] of [['Ébène', 'ebony'], ['墙体', '门窗'], ['layer é', 'layer e']]) expect(sign(collate(a, b))).toBe(sign(a.localeCompare(b)));
  });
});
