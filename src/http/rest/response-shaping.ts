/**
 * The reference's global query parameters that reshape any response: `_fields` keeps only the
 * listed (possibly dotted) keys of a successful body; `_envelope` moves status and headers into
 * the body and answers 200.
 */
export function pickFields(body: unknown, fields: string): unknown {
  const paths = fields.split(',').map((f) => f.trim()).filter((f) => f !== '').map((f) => f.split('.'));
  if (paths.length === 0) return body;
  if (Array.isArray(body)) return body.map((item) => pickPaths(item, paths));
  return pickPaths(body, paths);
}

function pickPaths(value: unknown, paths: string[][]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(source)) {
    const matching = paths.filter((path) => path[0] === key);
    if (matching.length === 0) continue;
    if (matching.some((path) => path.length === 1)) out[key] = child;
    else out[key] = pickPaths(child, matching.map((path) => path.slice(1)));
  }
  return out;
}

export function envelope(status: number, body: unknown, headers: Record<string, string>): unknown {
  return { body, status, headers: Object.keys(headers).length > 0 ? headers : [] };
}
