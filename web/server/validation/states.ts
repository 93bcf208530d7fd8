/**
 * The states the server knows, read from the rules bundle it loads (dist/rules/bundle.json,
 * built from rules/<st>/state.yaml): nothing here lists them. Every state of the bundle may
 * be a subscription's or a message's state; the editions (tier `edition`, and the neutral
 * hub, tier `hub`, whose forms post `state: "HUB"`) are the sites a host can serve. The API
 * accepts a code in either case and stores it upper-case.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUNDLE_PATH, readBundle, type Bundle, type Label } from '../../../engine/node.js';

/** The compiled engine's bundle, or (the server run from its sources, as the tests do) the repository's dist/rules/bundle.json. */
const bundlePath = existsSync(BUNDLE_PATH) ? BUNDLE_PATH : fileURLToPath(new URL('../../../dist/rules/bundle.json', import.meta.url));

/** A state code of the bundle (NY, TX, …, HUB). */
export type StateCode = string;

export interface ServerStates {
  /** Every state of the bundle, in its order. */
  codes: readonly StateCode[];
  /** The states with a site of their own (tier edition) and the hub. */
  editions: readonly StateCode[];
  /** The hub's code (tier hub). */
  hub: StateCode;
  names: Readonly<Record<StateCode, Label>>;
  tiers: Readonly<Record<StateCode, 'edition' | 'county' | 'hub'>>;
}

/** The server's view of a bundle's states. */
export function statesOf(bundle: Pick<Bundle, 'states'>): ServerStates {
  const all = Object.values(bundle.states);
  const hub = all.find((s) => s.tier === 'hub')?.code ?? 'HUB';
  return {
    codes: all.map((s) => s.code),
    // The editions first, then the hub: the order of the sites' listing.
    editions: [...all.filter((s) => s.tier === 'edition').map((s) => s.code), ...all.filter((s) => s.tier === 'hub').map((s) => s.code)],
    hub,
    names: Object.fromEntries(all.map((s) => [s.code, s.name])),
    tiers: Object.fromEntries(all.map((s) => [s.code, s.tier])),
  };
}

/** The states of the bundle this server runs on (read once, at start-up). */
export const STATES: ServerStates = statesOf(readBundle(bundlePath));
export const STATE_CODES: readonly StateCode[] = STATES.codes;
export const EDITION_CODES: readonly StateCode[] = STATES.editions;

/** Every spelling the schema accepts. */
export const ACCEPTED_STATE_SPELLINGS: readonly string[] = STATE_CODES.flatMap((code) => [code, code.toLowerCase()]);

export function isStateCode(value: string): value is StateCode {
  return STATE_CODES.includes(value);
}

/** Whether a code is an edition's (a state with a site of its own, or the hub). */
export function isEditionCode(value: string): boolean {
  return EDITION_CODES.includes(value);
}

export function toStateCode(value: string): StateCode {
  const upper = value.toUpperCase();
  if (!isStateCode(upper)) throw new Error(`not a state code: ${value}`); // the schema has already refused it
  return upper;
}
