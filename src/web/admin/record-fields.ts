import type { Role } from '../../domain/auth/capabilities.ts';
import type { MessageKey } from '../../i18n/catalog.ts';
import type { FieldSpec } from './record-form.tsx';

type T = (key: MessageKey) => string;

/** The status select; `private` hidden from contributors (100 §16 #6). */
function statusField(t: T, role: Role): FieldSpec {
  const statuses = role === 'contributor' ? ['draft', 'pending', 'publish'] : ['draft', 'pending', 'publish', 'private'];
  return { name: 'status', label: 'rec_field_status', kind: 'select', options: statuses.map((value) => ({ value, label: t(`rec_status_${value}` as MessageKey) })) };
}

/** 100 §9, venue: the API's field names (20). */
export function venueFields(t: T, role: Role): FieldSpec[] {
  return [
    { name: 'venue', label: 'rec_field_name', kind: 'text', required: true },
    { name: 'address', label: 'rec_field_address', kind: 'text', autocomplete: 'off' },
    { name: 'city', label: 'rec_field_city', kind: 'text' },
    { name: 'province', label: 'rec_field_province', kind: 'text' },
    { name: 'state', label: 'rec_field_state', kind: 'text' },
    { name: 'zip', label: 'rec_field_zip', kind: 'text' },
    { name: 'country', label: 'rec_field_country', kind: 'text' },
    { name: 'phone', label: 'rec_field_phone', kind: 'tel' },
    { name: 'website', label: 'rec_field_website', kind: 'url' },
    { name: 'description', label: 'rec_field_description', kind: 'textarea', hint: 'rec_hint_description' },
    { name: 'geo_lat', label: 'rec_field_geo_lat', kind: 'text', hint: 'rec_hint_coordinates' },
    { name: 'geo_lng', label: 'rec_field_geo_lng', kind: 'text' },
    { name: 'show_map', label: 'rec_field_show_map', kind: 'checkbox' },
    { name: 'show_map_link', label: 'rec_field_show_map_link', kind: 'checkbox' },
    statusField(t, role),
    { name: 'password', label: 'rec_field_password', kind: 'text', hint: 'rec_hint_password', autocomplete: 'off' },
    { name: 'image', label: 'rec_field_image', kind: 'text', hint: 'rec_hint_image' },
  ];
}

/** 100 §9, organizer (20). */
export function organizerFields(t: T, role: Role): FieldSpec[] {
  return [
    { name: 'organizer', label: 'rec_field_name', kind: 'text', required: true },
    { name: 'phone', label: 'rec_field_phone', kind: 'tel' },
    { name: 'email', label: 'rec_field_email', kind: 'email' },
    { name: 'website', label: 'rec_field_website', kind: 'url' },
    { name: 'description', label: 'rec_field_description', kind: 'textarea', hint: 'rec_hint_description' },
    statusField(t, role),
    { name: 'password', label: 'rec_field_password', kind: 'text', hint: 'rec_hint_password', autocomplete: 'off' },
    { name: 'image', label: 'rec_field_image', kind: 'text', hint: 'rec_hint_image' },
  ];
}

/** 100 §9, category (with its parent: `0` = none) and tag (30). */
export function termFields(t: T, parents: { id: number; name: string }[] | null): FieldSpec[] {
  return [
    { name: 'name', label: 'rec_field_name', kind: 'text', required: true },
    { name: 'slug', label: 'rec_field_slug', kind: 'text', hint: 'rec_hint_slug' },
    ...(parents === null
      ? []
      : [{ name: 'parent', label: 'rec_field_parent', kind: 'select', options: [{ value: '0', label: t('rec_parent_none') }, ...parents.map((term) => ({ value: String(term.id), label: term.name }))] } satisfies FieldSpec]),
    { name: 'description', label: 'rec_field_description', kind: 'textarea' },
  ];
}
