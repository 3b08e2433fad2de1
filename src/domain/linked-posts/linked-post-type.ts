import type { OwnedRecord } from '../auth/record-permissions.ts';
import type { Status } from '../status.ts';

/**
 * Venues and organizers are the same kind of record ("linked posts" of events) that differ only
 * in their fields (20 §2, §3). Everything type-specific is described here once, so routes,
 * service, repository and serializers are written a single time for both.
 */
export type LinkedKind = 'venue' | 'organizer';

export type VenueTextField = 'address' | 'city' | 'country' | 'province' | 'state' | 'zip' | 'phone' | 'website' | 'stateprovince';
export type OrganizerTextField = 'phone' | 'website' | 'email';
export type LinkedTextField = VenueTextField | OrganizerTextField;
export type LinkedFlag = 'show_map' | 'show_map_link';

export interface LinkedPostType {
  kind: LinkedKind;
  /** Table name, route segment and the list envelope key. */
  collection: 'venues' | 'organizers';
  /** Input and output key of the record's name. */
  nameKey: LinkedKind;
  /** The plain link of non-public records names this post type (20 §4.1). */
  postType: 'tribe_venue' | 'tribe_organizer';
  /** Stored text fields in output order; always tag-stripped on write (20 §4.4). */
  textFields: readonly LinkedTextField[];
  /** Columns the list `search` looks in, besides name, description and excerpt (20 §5.4). */
  searchFields: readonly LinkedTextField[];
  /** Stored on/off flags, `true` unless a falsy value was sent. */
  flags: readonly LinkedFlag[];
  /** Stores coordinates and takes part in location search (70-geo). */
  coordinates: boolean;
}

export const VENUE: LinkedPostType = {
  kind: 'venue',
  collection: 'venues',
  nameKey: 'venue',
  postType: 'tribe_venue',
  textFields: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'],
  // Country and website are not searched (20 §5.4).
  searchFields: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  flags: ['show_map', 'show_map_link'],
  coordinates: true,
};

export const ORGANIZER: LinkedPostType = {
  kind: 'organizer',
  collection: 'organizers',
  nameKey: 'organizer',
  postType: 'tribe_organizer',
  textFields: ['phone', 'website', 'email'],
  searchFields: ['phone', 'email', 'website'],
  flags: [],
  coordinates: false,
};

/** Empty URL or an absolute URL with a scheme and a host (`www.x.org`, `foo` are refused: 20 §6.1). */
export function isWebsiteInput(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  if (trimmed === '') return true;
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+/i.test(trimmed)) return false;
  try {
    new URL(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** What the object-level permission rules (40 §5) need from a stored venue or organizer. */
export function ownership(record: { author: number; status: Status; pre_trash_status: Status | null }): OwnedRecord {
  return { author: record.author, status: record.status, preTrashStatus: record.pre_trash_status };
}
