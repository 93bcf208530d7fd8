import { STATE_CODES, type StateCode } from './states.js';

/**
 * Newsletter tags. The accepted set is closed:
 * - `<state>-newsletter` and `<state>-calculator` for the five editions (ny, tx, ca, fl and
 *   the hub: hub-newsletter, hub-calculator), and only for the edition the subscription is for;
 * - `property-tax-updates`;
 * - a county tag: `county-` followed by a lower-case kebab slug, ^county-[a-z]+(-[a-z]+)*$,
 *   e.g. county-kings, county-miami-dade, county-st-lucie (at most 64 characters).
 */
export const TAG_MAX_LENGTH = 64;
export const TAGS_MAX_COUNT = 10;
/** Most tags one subscription keeps (also a CHECK of the table): repeat sign-ups cannot grow a row without bound. */
export const TAGS_MAX_STORED = 20;

const STATE_TAG_KINDS = ['newsletter', 'calculator'] as const;
const GLOBAL_TAGS: ReadonlySet<string> = new Set(['property-tax-updates']);
const COUNTY_TAG = /^county-[a-z]+(?:-[a-z]+)*$/;

const STATE_OF_TAG: ReadonlyMap<string, StateCode> = new Map(
  STATE_CODES.flatMap((code) => STATE_TAG_KINDS.map((kind) => [`${code.toLowerCase()}-${kind}`, code] as const)),
);

/** Shape check used by the request schema: is this one of the known tags, for any state? */
export function isKnownTag(tag: string): boolean {
  if (tag.length > TAG_MAX_LENGTH) return false;
  return GLOBAL_TAGS.has(tag) || STATE_OF_TAG.has(tag) || COUNTY_TAG.test(tag);
}

/**
 * Tags of one subscription, deduplicated and sorted; undefined when a state tag names another
 * state than the subscription's (a banner on the NY site cannot sign someone up to TX news).
 */
export function tagsForState(tags: readonly string[], state: StateCode): string[] | undefined {
  for (const tag of tags) {
    const tagState = STATE_OF_TAG.get(tag);
    if (tagState !== undefined && tagState !== state) return undefined;
  }
  return mergeTags([], tags);
}

/**
 * Union of two tag lists, sorted, so that stored values are canonical. At most `max` tags:
 * the existing ones are kept, added ones fill the room left, in their order.
 */
export function mergeTags(existing: readonly string[], added: readonly string[], max = TAGS_MAX_STORED): string[] {
  const merged = new Set(existing.slice(0, max));
  for (const tag of added) {
    if (merged.size >= max) break;
    merged.add(tag);
  }
  return [...merged].sort();
}
