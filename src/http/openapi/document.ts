import type { NamespaceDef } from '../rest/endpoint.ts';
import { buildComponents, SECURITY } from './components.ts';
import type { Describe } from './describe.ts';
import { buildPaths } from './paths.ts';

export const INFO_TITLE = 'Calendar Events REST API';
const INFO_DESCRIPTION = 'Access to the events of the calendar with their venues, organizers, categories and tags.';

/** The title and description of a namespace's document, in English. */
export interface DocumentInfo {
  title: string;
  description: string;
}

const EVENTS_INFO: DocumentInfo = { title: INFO_TITLE, description: INFO_DESCRIPTION };

export interface DocumentOptions {
  /** `{origin}{base}{edition}/calendar/events/v1/` (or the admin namespace's). */
  serverUrl: string;
  describe: Describe;
  /** Default: the events namespace's. */
  info?: DocumentInfo;
}

/**
 * `GET {ns}/doc` (30 §3): the OpenAPI 3.0 document, generated from the route declarations that
 * also validate requests, with the reference's top-level keys and order.
 */
export function buildOpenApiDocument(def: NamespaceDef, { serverUrl, describe, info = EVENTS_INFO }: DocumentOptions): Record<string, unknown> {
  return {
    openapi: '3.0.0',
    info: { version: '1.0.0', title: describe(info.title), description: describe(info.description) },
    components: buildComponents(describe),
    servers: [{ url: serverUrl }],
    paths: buildPaths(def, describe),
    security: SECURITY,
  };
}
