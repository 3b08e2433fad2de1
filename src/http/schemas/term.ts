import { EMPTY_ARRAY, type JsonSchema } from './json-schema.ts';

const urls: JsonSchema = {
  type: 'object',
  description: 'API addresses of the term.',
  properties: {
    self: { type: 'string', format: 'uri', description: 'API address of this term.' },
    collection: { type: 'string', format: 'uri', description: 'API address of the list of terms of the same taxonomy.' },
    up: { type: 'string', format: 'uri', description: 'API address of the parent category; only when there is one.' },
  },
};

const id: JsonSchema = { type: 'integer', description: 'Term ID.' };
const count: JsonSchema = { type: 'integer', description: 'Number of published events carrying the term.' };
const description: JsonSchema = { type: 'string', description: 'Term description; empty when none.' };
const name: JsonSchema = { type: 'string', description: 'Term name, HTML-escaped.' };
const slug: JsonSchema = { type: 'string', description: 'Term slug, unique within its taxonomy.' };
const taxonomy: JsonSchema = { type: 'string', enum: ['tribe_events_cat', 'post_tag'], description: 'Taxonomy: tribe_events_cat for categories, post_tag for tags.' };

/** A category or tag as the term routes return it (30 §1.3). */
export const Term: JsonSchema = {
  type: 'object',
  description: 'An event category or tag.',
  properties: {
    id,
    count,
    description,
    name,
    slug,
    taxonomy,
    parent: { type: 'integer', description: 'Parent category ID, 0 at the top level; categories only.' },
    meta: { ...EMPTY_ARRAY, description: 'Term metadata; always an empty array.' },
    url: { type: 'string', format: 'uri', description: 'Address of the public archive page of the term.' },
    urls,
    _links: {
      type: 'object',
      additionalProperties: true,
      description: 'Links to the term, its list and its parent category; only in the response of a single read, create or update.',
    },
  },
};

/** A category or tag inside an event's `categories`/`tags` (30 §1.3, 10 §3.6): another shape and key order. */
export const EventTerm: JsonSchema = {
  type: 'object',
  description: 'A category or tag as embedded in an event.',
  properties: {
    name,
    slug,
    term_group: { type: 'integer', description: 'Always 0.' },
    term_taxonomy_id: { type: 'integer', description: 'Same as the term ID.' },
    taxonomy,
    description,
    parent: { type: 'integer', description: 'Parent category ID, 0 at the top level; always 0 for tags.' },
    count,
    filter: { type: 'string', enum: ['raw'], description: 'Always raw.' },
    id,
    urls,
  },
};
