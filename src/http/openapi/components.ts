import { RESPONSE_SCHEMAS } from '../schemas/index.ts';
import type { JsonSchema } from '../schemas/json-schema.ts';
import type { Describe } from './describe.ts';

/** A copy of a schema with every description in the edition's language. */
export function localized(schema: JsonSchema, describe: Describe): JsonSchema {
  const copy: JsonSchema = { ...schema };
  if (schema.description !== undefined) copy.description = describe(schema.description);
  if (schema.properties) {
    copy.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, localized(property, describe)]));
  }
  if (schema.items) copy.items = localized(schema.items, describe);
  if (typeof schema.additionalProperties === 'object') copy.additionalProperties = localized(schema.additionalProperties, describe);
  if (schema.oneOf) copy.oneOf = schema.oneOf.map((member) => localized(member, describe));
  if (schema.allOf) copy.allOf = schema.allOf.map((member) => localized(member, describe));
  return copy;
}

/**
 * How a caller signs in (00-conventions.md): an application password, with Basic or Bearer. Not
 * in the reference document; it lets the documentation page try the routes that need a user.
 */
function securitySchemes(describe: Describe): Record<string, unknown> {
  return {
    basicAuth: { type: 'http', scheme: 'basic', description: describe('Login and application password.') },
    bearerAuth: { type: 'http', scheme: 'bearer', description: describe('Application password as bearer token.') },
    // 100 §6.2: the back office's session, for scripts running in its pages; the two go together.
    cookieAuth: { type: 'apiKey', in: 'cookie', name: 'cal_session', description: describe('The back office session cookie; it counts only with its nonce.') },
    nonceAuth: {
      type: 'apiKey',
      in: 'header',
      name: 'X-WP-Nonce',
      description: describe('The nonce of the back office session (also accepted as the _wpnonce parameter). A wrong nonce, or a nonce with an absent or expired cookie, answers 403 rest_cookie_invalid_nonce ("Cookie check failed"); the cookie without a nonce is ignored.'),
    },
  };
}

/** Every operation may be called anonymously or signed in; the routes decide what a visitor may do. */
export const SECURITY = [{}, { basicAuth: [] }, { bearerAuth: [] }, { cookieAuth: [], nonceAuth: [] }];

export function buildComponents(describe: Describe): Record<string, unknown> {
  const schemas = Object.fromEntries(Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => [name, localized(schema, describe)]));
  return { schemas, securitySchemes: securitySchemes(describe) };
}
