import assert from 'node:assert/strict';
import { LANGUAGES, translate } from '../../src/i18n/catalog.ts';

const GENERIC_NOTES = new Set(LANGUAGES.map((lang) => translate(lang, 'rest_invalid_param_generic')));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The documented error shape (00-conventions "Errors"): `{code, message, data: {status}}` with
 * the HTTP status in `data.status`; `rest_invalid_param` names every failed parameter with a
 * message and, in `details`, a coded reason; `rest_missing_callback_param` lists the missing names.
 */
export function assertErrorShape(body: unknown, status: number, label: string): void {
  assert.ok(isPlainObject(body), `${label}: the error body is not a JSON object`);
  assert.equal(typeof body.code, 'string', `${label}: code is not a string`);
  assert.notEqual(body.code, '', `${label}: empty code`);
  assert.equal(typeof body.message, 'string', `${label}: message is not a string`);
  assert.notEqual(body.message, '', `${label}: empty message`);
  assert.ok(isPlainObject(body.data), `${label}: data is not an object`);
  assert.equal(body.data.status, status, `${label}: data.status differs from the HTTP status`);
  if (body.code === 'rest_invalid_param') {
    const params = body.data.params;
    assert.ok(isPlainObject(params) && Object.keys(params).length > 0, `${label}: rest_invalid_param without params`);
    for (const [name, message] of Object.entries(params)) assert.equal(typeof message, 'string', `${label}: params.${name} is not a message`);
    // Every refused parameter also says why (issue 11): a coded, specific reason.
    const details = body.data.details;
    assert.ok(isPlainObject(details), `${label}: rest_invalid_param without details`);
    for (const name of Object.keys(params)) {
      const reason = details[name];
      assert.ok(isPlainObject(reason) && typeof reason.code === 'string' && reason.code !== '' && reason.code !== 'rest_invalid_param', `${label}: details.${name} has no reason code`);
      assert.ok(typeof reason.message === 'string' && reason.message !== '' && !GENERIC_NOTES.has(reason.message), `${label}: details.${name} gives no precise reason`);
    }
  }
  if (body.code === 'rest_missing_callback_param') {
    const params = body.data.params;
    assert.ok(Array.isArray(params) && params.length > 0 && params.every((name) => typeof name === 'string'), `${label}: missing params not listed`);
  }
}

/**
 * What the client really got: `_envelope` answers 200 and carries the real status and body
 * inside (30 §4.6).
 */
export function unwrapEnvelope(status: number, body: unknown, askedForEnvelope: boolean): { status: number; body: unknown } {
  if (askedForEnvelope && status === 200 && isPlainObject(body) && typeof body.status === 'number' && 'body' in body && 'headers' in body) {
    return { status: body.status, body: body.body };
  }
  return { status, body };
}
