/** The state editions that exist. The API accepts the code in either case and stores it upper-case. */
export const STATE_CODES = ['NY', 'TX', 'CA', 'FL'] as const;
export type StateCode = (typeof STATE_CODES)[number];

/** Every spelling the schema accepts. */
export const ACCEPTED_STATE_SPELLINGS: readonly string[] = STATE_CODES.flatMap((code) => [code, code.toLowerCase()]);

export function toStateCode(value: string): StateCode {
  const upper = value.toUpperCase();
  const code = STATE_CODES.find((candidate) => candidate === upper);
  if (!code) throw new Error(`not a state code: ${value}`); // the schema has already refused it
  return code;
}
