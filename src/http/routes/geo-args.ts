import { InvalidParamsError } from '../../domain/errors.ts';
import { readGeoSearch, type GeoDefaults, type GeoSearch } from '../../domain/geo/geo-input.ts';
import { distanceValue } from '../../domain/geo/geo.ts';
import type { ArgSpec, ArgSpecs } from '../../args/arg-spec.ts';
import { coerceBoolean } from '../../args/coerce.ts';
import type { Params } from '../../args/validate-args.ts';
import { LINKED_ORDER_DESCRIPTION, rawLinkPairs } from './list-args.ts';

/** The location search as the raw request gives it (validators see raw values only). */
function searchOf(raw: Readonly<Record<string, unknown>>, defaults: GeoDefaults) {
  return readGeoSearch({ geoloc: coerceBoolean(raw.geoloc) === true, values: raw, orderby: raw.orderby, order: raw.order }, defaults);
}

/** Each parameter reports its own reason; a missing half of the centre is reported by the handler. */
function checked(name: string, defaults: GeoDefaults, spec: Omit<ArgSpec, 'validate'>): ArgSpec {
  return { ...spec, validate: (_value, _ctx, raw) => searchOf(raw, defaults).failures[name] ?? true };
}

/**
 * The location search parameters of 70-geo §3.1 for a list route. `what` names the listed records
 * in the descriptions (and only events know `orderby=start`).
 */
export function geoSearchArgs(defaults: GeoDefaults, what: 'events' | 'venues'): ArgSpecs {
  const whose = what === 'events' ? 'whose venue is' : 'that are';
  return {
    geoloc: {
      type: 'boolean',
      description: `With a true value, only the ${what} ${whose} published with coordinates; with geoloc_lat and geoloc_lng, only those within geoloc_radius of that point.`,
    },
    geoloc_lat: checked('geoloc_lat', defaults, { description: 'Latitude of the search centre, -90 to 90 (with geoloc=1 and geoloc_lng).' }),
    geoloc_lng: checked('geoloc_lng', defaults, { description: 'Longitude of the search centre, -180 to 180 (with geoloc=1 and geoloc_lat).' }),
    geoloc_radius: checked('geoloc_radius', defaults, {
      extension: true,
      description: 'Search radius in geoloc_unit: greater than 0, at most half the Earth\'s circumference; the site default otherwise.',
    }),
    geoloc_unit: checked('geoloc_unit', defaults, {
      extension: true,
      description: 'Unit of geoloc_radius and of geo_distance: miles, mi, kms or km; the site default otherwise.',
    }),
    orderby: checked('orderby', defaults, {
      extension: true,
      description: what === 'events'
        ? 'Sort key: start (default), date (publication date), modified, or distance (nearest first; needs a search centre); ties by id. Other values are ignored.'
        : 'Sort key: date (publication date), modified, or distance (nearest first; needs a search centre); ties by id. Other values are ignored.',
    }),
    order: {
      extension: true,
      description: what === 'events'
        ? 'Sort direction: asc (default) or desc, which reverses the whole order.'
        : LINKED_ORDER_DESCRIPTION,
    },
  };
}

/** The validated search of a list request; throws the reasons the single validators cannot give. */
export function geoSearchOf(params: Params, defaults: GeoDefaults): GeoSearch {
  const { search, failures } = searchOf(params.raw, defaults);
  if (Object.keys(failures).length > 0) throw new InvalidParamsError(failures);
  return search;
}

/** Appends `geo_distance` (70 §3.2) to the objects that have a distance and are shown whole. */
export function withDistances(
  items: Array<Record<string, unknown>>,
  ids: readonly number[],
  distances: Map<number, number> | undefined,
  search: GeoSearch,
  shown: (index: number) => boolean,
): Array<Record<string, unknown>> {
  if (distances === undefined) return items;
  return items.map((item, index) => {
    const km = distances.get(ids[index]);
    return km === undefined || !shown(index) ? item : { ...item, geo_distance: distanceValue(km, search.unit) };
  });
}

/** The search parameters the list links repeat after the reference's own (70 §3.3), as given; the sort ones follow (list-args). */
export function geoLinkPairs(params: Params): Array<[string, string]> {
  return rawLinkPairs(params, ['geoloc_radius', 'geoloc_unit']);
}
