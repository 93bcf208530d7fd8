/** Errors are values with a code and a message a person can act on. */
export class PtaxError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'PtaxError';
  }
}

export const isPtaxError = (e: unknown): e is PtaxError => e instanceof PtaxError;
