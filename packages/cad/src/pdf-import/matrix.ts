/** PDF's 2D affine matrices [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f (PDF 32000-1 §8.3.3). */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `m` applied first, then `n` (PDF's `cm` makes CTM = m × CTM). */
export function multiply(m: readonly number[], n: readonly number[]): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

export function apply(m: readonly number[], x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** a length in user space as it is on the page: the mean scale of the matrix (line widths, dash lengths) */
export function meanScale(m: readonly number[]): number {
  return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
}
