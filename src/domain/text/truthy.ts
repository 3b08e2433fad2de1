// Truthiness of loosely typed flags such as `has_events` and venue `show_map`
// (20 §5.1): anything not listed, including "false", "0" and "", is false.

const TRUTHY = new Set(['1', 'true', 'yes', 'y', 'on', 'enable', 'enabled']);

export function isTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  return TRUTHY.has(String(value).trim().toLowerCase());
}
