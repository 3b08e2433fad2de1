// Venue `stateprovince` (20 §6.3), computed from one request's values only.

export interface StateProvinceInput {
  stateprovince?: string | null;
  state?: string | null;
  province?: string | null;
  country?: string | null;
}

const US_COUNTRY = new Set(['', 'US', 'United States']);

export function deriveStateProvince({ stateprovince, state, province, country }: StateProvinceInput): string {
  const given = (stateprovince ?? '').trim();
  if (given !== '') return given;
  const stateValue = (state ?? '').trim();
  // A state only names the region for US (or unspecified-country) venues.
  if (stateValue !== '' && US_COUNTRY.has((country ?? '').trim())) return stateValue;
  return (province ?? '').trim();
}
