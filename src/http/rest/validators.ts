/** Small validators shared by the route declarations (step 5 of the reference's processing). */

/** A positive integer given as a JSON number or as digits, or undefined. */
export function positiveInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

export function isPositiveInteger(value: unknown): boolean {
  return positiveInteger(value) !== undefined;
}

export function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}
