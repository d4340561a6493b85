/** Why a 3D conversion did not produce a model: the kinds the server maps to the spec's messages. */
export type Model3dErrorKind = 'too-large' | 'bad-input' | 'timeout' | 'unsupported';

export class Model3dError extends Error {
  readonly kind: Model3dErrorKind;
  constructor(kind: Model3dErrorKind, message: string) {
    super(message);
    this.name = 'Model3dError';
    this.kind = kind;
  }
}

export const tooLarge = (message: string) => new Model3dError('too-large', message);
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
