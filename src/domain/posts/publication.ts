import { ZERO_DATETIME } from '../dates/datetime-format.ts';
import { utcToWall, wallToUtc } from '../dates/time-zone.ts';
import { adjustStatusForDate, type Status } from '../status.ts';

export interface PublicationDates {
  date_local: string;
  date_utc: string;
}

export interface PublicationRequest {
  /** The resulting status after role scaling (40 §9), before the date adjustment. */
  status: Status;
  /** `date` as given, already parsed to a site-zone wall clock. */
  dateLocal?: string;
  /** `date_utc` as given, already parsed to UTC. */
  dateUtc?: string;
  /** The stored dates on update; absent on create. */
  previous?: PublicationDates;
  siteZone: string;
  now: Date;
}

function utcString(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function floats(status: Status): boolean {
  return status === 'draft' || status === 'pending';
}

/**
 * Publication dates and the final status of a post-like record (40 §9, 10-events §6.2,
 * 20 §6.1): `date_utc` wins and derives `date`; `date` alone derives `date_utc`, except that a
 * draft or pending record "floats" (`date_utc` stays zero) until it is published, when both
 * become the publish instant. Then `publish` dated a minute ahead becomes `future` and `future`
 * in the past becomes `publish`.
 */
export function resolvePublication(request: PublicationRequest): PublicationDates & { status: Status } {
  const nowUtc = utcString(request.now);
  const { siteZone, previous } = request;
  let dates: PublicationDates;
  if (request.dateUtc !== undefined) {
    dates = { date_utc: request.dateUtc, date_local: utcToWall(request.dateUtc, siteZone) };
  } else if (request.dateLocal !== undefined) {
    dates = { date_local: request.dateLocal, date_utc: floats(request.status) ? ZERO_DATETIME : wallToUtc(request.dateLocal, siteZone) };
  } else if (previous && !(previous.date_utc === ZERO_DATETIME && !floats(request.status))) {
    dates = previous;
  } else if (floats(request.status)) {
    dates = { date_local: previous?.date_local ?? utcToWall(nowUtc, siteZone), date_utc: ZERO_DATETIME };
  } else {
    dates = { date_local: utcToWall(nowUtc, siteZone), date_utc: nowUtc };
  }
  const status = dates.date_utc === ZERO_DATETIME ? request.status : adjustStatusForDate(request.status, dates.date_utc, nowUtc);
  return { ...dates, status };
}
