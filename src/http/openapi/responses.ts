import type { DocumentedResponse } from '../rest/endpoint.ts';
import { localized } from './components.ts';
import type { Describe } from './describe.ts';

export type OperationKind = 'list' | 'read' | 'create' | 'update' | 'delete' | 'other';

/** The response codes the reference documents per kind of operation (30 §3). */
const CODES: Record<OperationKind, readonly number[]> = {
  list: [200, 400, 404],
  read: [200, 400, 403, 404],
  // Not in the reference document (it documents creation on the item path): as the item post.
  create: [201, 400, 403],
  update: [200, 201, 400, 403],
  delete: [200, 400, 403, 410, 500],
  other: [200],
};

/** Where the reference document deviates per resource, kept for fidelity (30 §3). */
const RESOURCE_CODES: Readonly<Record<string, Partial<Record<OperationKind, readonly number[]>>>> = {
  organizers: { update: [201, 400, 403] },
  categories: { read: [200, 400, 404] },
  tags: { read: [200, 400, 404] },
};

/** The component schema of each resource's objects. */
export const RESOURCE_SCHEMAS: Readonly<Record<string, string>> = {
  events: 'Event',
  venues: 'Venue',
  organizers: 'Organizer',
  categories: 'Term',
  tags: 'Term',
};

const SUCCESS: Record<OperationKind, string> = {
  list: 'The requested page: an object with the items under the name of the list, total, total_pages and the addresses of the neighbouring pages.',
  read: 'The requested record.',
  create: 'The created record.',
  update: 'The updated record.',
  delete: 'The deleted record.',
  other: 'Successful response.',
};

const FAILURE: Record<number, string> = {
  400: 'A parameter is missing or invalid, or the ID or slug does not name a record of this kind.',
  403: 'The caller may not read or change this record.',
  404: 'The record or the requested page does not exist.',
  410: 'The record is already in the trash.',
  500: 'The record could not be deleted.',
};

function successSchema(kind: OperationKind, resource: string): Record<string, unknown> | undefined {
  const name = RESOURCE_SCHEMAS[resource];
  if (!name || kind === 'other') return undefined;
  const schema = { $ref: `#/components/schemas/${name}` };
  // The reference documents a list as an array of its items, although the body is an envelope object.
  return kind === 'list' ? { title: resource, type: 'array', items: schema } : schema;
}

export function responsesFor(kind: OperationKind, resource: string, describe: Describe): Record<string, unknown> {
  const codes = RESOURCE_CODES[resource]?.[kind] ?? CODES[kind];
  const responses: Record<string, unknown> = {};
  for (const code of codes) {
    if (code >= 300) {
      responses[code] = { description: describe(FAILURE[code]) };
      continue;
    }
    // On the item path, 201 documents the creation the reference documents there.
    const description = describe(code === 201 ? SUCCESS.create : SUCCESS[kind]);
    const schema = successSchema(kind, resource);
    responses[code] = schema ? { description, content: { 'application/json': { schema } } } : { description };
  }
  return responses;
}

/** An endpoint's own list of answers (Endpoint.responses), described in the edition's language. */
export function documentedResponses(declared: Readonly<Record<number, DocumentedResponse>>, describe: Describe): Record<string, unknown> {
  return Object.fromEntries(Object.entries(declared).map(([code, { description, schema }]) => [
    code,
    { description: describe(description), ...(schema === undefined ? {} : { content: { 'application/json': { schema: localized(schema, describe) } } }) },
  ]));
}
