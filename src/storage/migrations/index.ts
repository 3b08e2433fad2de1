import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../database.ts';
import { initialSchema } from './0001-initial.ts';
import { dataVersion } from './0002-data-version.ts';
import { recurrence } from './0004-recurrence.ts';
import { venueCoordinates } from './0005-venue-coordinates.ts';
import { icalImports } from './0006-ical-imports.ts';
import { importRecords } from './0007-import-records.ts';
import { writerScaling } from './0008-writer-scaling.ts';
import { sync } from './0009-sync.ts';
import { webhooks } from './0010-webhooks.ts';
import { listOrder } from './0011-list-order.ts';
import { touchOnce } from './0012-touch-once.ts';
import { triggerPlans } from './0013-trigger-plans.ts';
import { statementTriggers } from './0014-statement-triggers.ts';
import { credentialChanges } from './0015-credential-changes.ts';
import { transactionNotifications } from './0016-transaction-notifications.ts';
import { termLockStrength } from './0017-term-lock-strength.ts';
import { termLinkStarts } from './0018-term-link-starts.ts';
import { keptTriggerPlans } from './0019-kept-trigger-plans.ts';
import { clusteredDayCounts } from './0020-clustered-day-counts.ts';
import { mediaUploads } from './0021-media-uploads.ts';
import { webhookObjects } from './0024-webhook-objects.ts';
import { csvImports } from './0026-csv-imports.ts';
import { submissions } from './0029-submissions.ts';
import { backOfficeSessions } from './0027-back-office-sessions.ts';
import { appPasswordNames } from './0028-app-password-names.ts';
import { listWalks } from './0032-list-walks.ts';
import { credentialColumns } from './0033-credential-columns.ts';

/**
 * Migrations in order, keyed by a name that sorts by version. They run at every start on both
 * dialects; a migration receives the dialect for the few DDL spellings that differ.
 */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001-initial': initialSchema(dialect),
        '0002-data-version': dataVersion(dialect),
        '0004-recurrence': recurrence(),
        '0005-venue-coordinates': venueCoordinates(dialect),
        '0006-ical-imports': icalImports(dialect),
        '0007-import-records': importRecords(),
        '0008-writer-scaling': writerScaling(dialect),
        '0009-sync': sync(dialect),
        '0010-webhooks': webhooks(dialect),
        '0011-list-order': listOrder(dialect),
        '0012-touch-once': touchOnce(dialect),
        '0013-trigger-plans': triggerPlans(dialect),
        '0014-statement-triggers': statementTriggers(dialect),
        '0015-credential-changes': credentialChanges(dialect),
        '0016-transaction-notifications': transactionNotifications(dialect),
        '0017-term-lock-strength': termLockStrength(dialect),
        '0018-term-link-starts': termLinkStarts(dialect),
        '0019-kept-trigger-plans': keptTriggerPlans(dialect),
        '0020-clustered-day-counts': clusteredDayCounts(dialect),
        '0021-media-uploads': mediaUploads(dialect),
        '0024-webhook-objects': webhookObjects(),
        '0026-csv-imports': csvImports(),
        '0029-submissions': submissions(dialect),
        '0027-back-office-sessions': backOfficeSessions(dialect),
        '0028-app-password-names': appPasswordNames(),
        '0032-list-walks': listWalks(dialect),
        '0033-credential-columns': credentialColumns(dialect),
      };
    },
  };
}
