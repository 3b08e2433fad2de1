import { loadConfig, type Config } from '../config.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { importSite, type ImportReport } from '../services/site-import/importer.ts';
import { KINDS } from '../services/site-import/records.ts';
import { detectSourceKind, discoverNamespaceRoot, SourceClient, SourceUnusableError } from '../services/site-import/source.ts';
import { UsersService } from '../services/users-service.ts';
import { PUBLIC_NETWORK } from '../services/media/image-fetch.ts';
import { MediaService } from '../services/media/media-service.ts';
import { ImageCopier } from '../services/site-import/image-copy.ts';
import { openStorage, type Storage } from '../storage/database.ts';
import { openUploadStore } from '../storage/uploads/open-upload-store.ts';
import { barProgress, kindLabel, lineProgress } from './import-progress.ts';
import { UsageError, type CliArgs, type CliCommand } from './command.ts';

const IMPORT_SITE_DETAILS = `  URL                      a site root (https://site) or a namespace root (…/wp-json/tribe/events/v1)
  --user LOGIN --password SECRET
                           sign in (HTTP Basic, application password): all statuses are copied
  --author LOGIN           local owner of the copies (default: the first administrator)
  --prune                  move to the trash the copies of records the source no longer lists
  --dry-run                read everything, print what would happen, write nothing
  --json                   print the summary as one JSON object
  --rate N                 requests per second to the source (default 10)
  --allow-private          allow loopback, private and link-local source addresses
  --copy-images            copy the source's images (fetched and processed as uploads)
exit codes: 0 all copied, 1 some records skipped, 2 could not start, 130 interrupted`;

/** Exit codes of 90 §2.4. */
const EXIT = { ok: 0, skipped: 1, cannotStart: 2, interrupted: 130 } as const;

class CannotStart extends Error {}

function summaryTable(report: ImportReport): string {
  const columns = ['created', 'updated', 'unchanged', 'skipped', 'trashed', 'warnings'] as const;
  const lines = [['', ...columns].map((cell, index) => (index === 0 ? cell.padEnd(11) : cell.padStart(10))).join('')];
  for (const { kind } of KINDS) {
    lines.push([kindLabel(kind).padEnd(11), ...columns.map((column) => String(report.kinds[kind][column]).padStart(10))].join(''));
  }
  const details = [
    ...report.slug_changes.map((change) => `slug changed: ${kindLabel(change.kind)} ${change.source_id} "${change.from}" → "${change.to}"`),
    ...report.skipped.map((skip) => `skipped: ${kindLabel(skip.kind)} ${skip.source_id} "${skip.name}": ${skip.reason}`),
    ...report.warnings.map((warning) => `warning: ${kindLabel(warning.kind)}${warning.source_id === undefined ? '' : ` ${warning.source_id}`}: ${warning.message}`),
    ...report.failed_pages.map((page) => `page not read: ${kindLabel(page.kind)} ${page.url}: ${page.message}`),
  ];
  const head = `${report.dryRun ? 'dry run (nothing written) — ' : ''}import from ${report.source} (${report.source_kind}: ${report.source_kind_evidence})${report.interrupted ? ' (interrupted)' : ''}`;
  return [head, ...lines, ...details].join('\n');
}

interface SiteOptions {
  user?: string;
  password?: string;
  author?: string;
  prune: boolean;
  'dry-run': boolean;
  json: boolean;
  rate: string;
  'allow-private': boolean;
  'copy-images': boolean;
}

async function run(args: CliArgs): Promise<number> {
  const { positionals } = args;
  const values = args.values as unknown as SiteOptions;
  if (positionals.length !== 1) throw new UsageError('one source URL is required');
  const rate = Number(values.rate);
  if (!Number.isFinite(rate) || rate <= 0 || rate > 1000) throw new UsageError('--rate must be a number of requests per second between 0 and 1000');
  if ((values.user === undefined) !== (values.password === undefined)) throw new UsageError('--user and --password go together');

  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  try {
    const users = new UsersService(storage, systemClock);
    const author = values.author === undefined
      ? (await users.list()).filter((user) => user.role === 'administrator').sort((a, b) => a.id - b.id)[0]
      : await users.findByLogin(values.author);
    if (!author) throw new CannotStart(values.author === undefined ? 'there is no administrator to own the copies; give --author' : `no local user "${values.author}"`);
    const client = new SourceClient({ user: values.user, password: values.password, allowPrivate: values['allow-private'], rate });
    const root = await discoverNamespaceRoot(client, positionals[0]);
    const sourceKind = await detectSourceKind(client, root);

    const output = values.json ? process.stderr : process.stdout;
    const progress = process.stdout.isTTY && !values.json ? barProgress(process.stdout) : lineProgress((line) => output.write(`${line}\n`));
    let stop = false;
    const onInterrupt = () => {
      stop = true;
    };
    process.on('SIGINT', onInterrupt);
    const report = await importSite({
      db: storage.db,
      client,
      root,
      sourceKind,
      user: author,
      siteZone: config.timezone,
      prune: values.prune,
      ...(values['copy-images'] ? { images: new ImageCopier(storage.db, root, imageService(config, storage, values['allow-private']), client, author) } : {}),
      dryRun: values['dry-run'],
      progress,
      stopRequested: () => stop,
    }).finally(() => process.off('SIGINT', onInterrupt));
    process.stdout.write(`${values.json ? JSON.stringify(report) : summaryTable(report)}\n`);
    if (report.interrupted) return EXIT.interrupted;
    return report.skipped.length > 0 || report.failed_pages.length > 0 ? EXIT.skipped : EXIT.ok;
  } finally {
    await storage.close();
  }
}

/** The uploads of `--copy-images`: the service's storage and limits, private sources only when allowed. */
function imageService(config: Config, storage: Storage, allowPrivate: boolean): MediaService {
  const network = allowPrivate ? { ...PUBLIC_NETWORK, refused: () => false } : PUBLIC_NETWORK;
  return new MediaService(storage, openUploadStore(config.media, storage), config.media, config.timezone, systemClock, network);
}

/** `calendar import site …`: returns the exit code; every failure to start is one line on stderr. */
async function importSiteCommand(args: CliArgs): Promise<number> {
  try {
    return await run(args);
  } catch (error) {
    if (error instanceof CannotStart || error instanceof SourceUnusableError) {
      process.stderr.write(`calendar: ${error.message}\n`);
      return EXIT.cannotStart;
    }
    throw error;
  }
}

export const IMPORT_SITE_COMMAND: CliCommand = {
  words: ['import', 'site'],
  synopsis: 'URL [options]',
  summary: 'copy a whole calendar from a live site',
  details: IMPORT_SITE_DETAILS,
  options: {
    user: { type: 'string' },
    password: { type: 'string' },
    author: { type: 'string' },
    prune: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    rate: { type: 'string', default: '10' },
    'allow-private': { type: 'boolean', default: false },
    'copy-images': { type: 'boolean', default: false },
  },
  run: importSiteCommand,
};
