/** Why a 3D conversion did not produce a model: the kinds the server maps to the spec's messages. */
export type Model3dErrorKind = 'too-large' | 'bad-input' | 'timeout' | 'unsupported';

/** Which configured limit a model passed, with the count found (so far: reading stops at the limit) and the limit. */
export interface Model3dOverLimit {
  what: 'triangles' | 'vertices';
  count: number;
  limit: number;
}

export class Model3dError extends Error {
  readonly kind: Model3dErrorKind;
  /** set on 'too-large' when a configured count limit was passed: the server tells the user both numbers */
  readonly overLimit?: Model3dOverLimit;
  constructor(kind: Model3dErrorKind, message: string, overLimit?: Model3dOverLimit) {
    super(message);
    this.name = 'Model3dError';
    this.kind = kind;
    if (overLimit) this.overLimit = overLimit;
  }
}

export const tooLarge = (message: string) => new Model3dError('too-large', message);
/** the model has more triangles or vertices than its limit (count: as many as were read when reading stopped) */
export const overLimit = (what: Model3dOverLimit['what'], count: number, limit: number) => new Model3dError('too-large', `${count} ${what}, more than the limit of ${limit}`, { what, count, limit });
export const badInput = (message: string) => new Model3dError('bad-input', message);
export const unsupported = (message: string) => new Model3dError('unsupported', message);
export const timedOut = (message: string) => new Model3dError('timeout', message);

/** an error of a parser or library as a bad input; our own errors keep their kind */
export function asModel3dError(e: unknown): Model3dError {
  if (e instanceof Model3dError) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError && /allocat|memory|Invalid array length|Array buffer/i.test(message)) return tooLarge(message);
  return badInput(message);
}
