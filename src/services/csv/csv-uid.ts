/** `{id}@{host}{base}`: a record's UID in CSV files, as its iCalendar UID (50 B.9). */
export function recordUid(id: number, uidDomain: string): string {
  return `${id}@${uidDomain}`;
}

/** The `{host}{base}` part of the UIDs this service writes. */
export function uidDomainOf(origin: string, basePath: string): string {
  return `${new URL(origin).host}${basePath}`;
}
