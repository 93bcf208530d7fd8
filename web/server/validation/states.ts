/**
 * The site's editions: the four states and the neutral hub (HUB), whose forms post
 * `state: "HUB"`. The API accepts a code in either case and stores it upper-case.
 */
export const STATE_CODES = ['NY', 'TX', 'CA', 'FL', 'HUB'] as const;
export type StateCode = (typeof STATE_CODES)[number];

/** Every spelling the schema accepts. */
export const ACCEPTED_STATE_SPELLINGS: readonly string[] = STATE_CODES.flatMap((code) => [code, code.toLowerCase()]);

export function isStateCode(value: string): value is StateCode {
  return (STATE_CODES as readonly string[]).includes(value);
}

export function toStateCode(value: string): StateCode {
  const upper = value.toUpperCase();
  if (!isStateCode(upper)) throw new Error(`not a state code: ${value}`); // the schema has already refused it
  return upper;
}
