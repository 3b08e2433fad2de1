import type { RouteDef } from '../rest/endpoint.ts';

function notServedHere(): never {
  throw new Error('documented only: the route is served by its own Fastify handler');
}

/**
 * The two admin routes that read or write files (imports, 50 C.1 and 140 §7; CSV exports,
 * 140 §7.1) are Fastify routes of their own (multipart bodies, file answers), not namespace
 * routes: these declarations put them in the admin namespace's document (100 §10) and are never
 * registered.
 */
export const ADMIN_FILE_ROUTES: RouteDef[] = [
  {
    pattern: '/imports',
    endpoints: [
      {
        methods: ['POST'],
        summary: 'Imports an iCalendar or CSV file (multipart part file, a text/calendar or text/csv body) or the iCalendar file at url; answers a report.',
        args: {
          url: { type: 'string', description: 'Address of an iCalendar file to fetch instead of a sent file.' },
          dry_run: { type: 'boolean', default: false, description: 'Report what the import would do without writing anything.' },
          status: { type: 'string', enum: ['publish', 'draft', 'pending', 'private'], default: 'publish', description: 'Status of the imported events.' },
          timezone: { type: 'string', description: 'Time zone for floating times of the file.' },
          category: { type: 'array', items: { type: 'string' }, description: 'Categories given to every imported event.' },
          update: { type: 'string', enum: ['overwrite', 'skip'], default: 'overwrite', description: 'What to do with events imported before.' },
          kind: { type: 'string', enum: ['events', 'venues', 'organizers'], description: 'CSV imports: the kind of records of the file.' },
          date_order: { type: 'string', description: 'CSV imports: the order of day, month and year in dates.' },
        },
        handler: notServedHere,
      },
    ],
  },
  {
    pattern: '/exports/(?P<kind>events|venues|organizers)\\.csv',
    endpoints: [
      {
        methods: ['GET'],
        summary: 'The events, venues or organizers as a CSV file.',
        produces: 'text/csv',
        args: {
          kind: { type: 'string', enum: ['events', 'venues', 'organizers'], required: true, description: 'The kind of records to export.' },
          status: { type: 'string', enum: ['any', 'publish'], default: 'any', description: 'Every record, or the published ones only.' },
        },
        handler: notServedHere,
      },
    ],
  },
];
