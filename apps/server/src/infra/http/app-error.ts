import { ERRORS, type ErrorCode } from '@cadcloud/contracts';

/** A business error with a stable code; its message is the spec's text, localized by the error handler. */
export class AppError extends Error {
  readonly rtnCode: string;
  constructor(
    readonly code: ErrorCode,
    readonly args: readonly (string | number)[] = [],
    readonly httpStatus = 200,
    /** extra fields for the answer's bizData (next to `code`), e.g. a share's `reason` */
    readonly details?: Record<string, string | number>,
  ) {
    super(code);
    this.rtnCode = ERRORS[code].rtnCode;
    this.name = 'AppError';
  }
}

/**
 * HTTP status: the spec's clients read rtnCode from a 200 answer for business errors; only "not signed in"
 * (401) and malformed or invalid requests (400) use an error status as well.
 */
export function appError(code: ErrorCode, args: readonly (string | number)[] = [], details?: Record<string, string | number>): AppError {
  const status = code === 'auth.notSignedIn' ? 401 : code === 'request.invalid' || code === 'request.malformed' ? 400 : 200;
  return new AppError(code, args, status, details);
}
