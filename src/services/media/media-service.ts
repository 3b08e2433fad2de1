import { createHash } from 'node:crypto';
import type { MediaSettings } from '../../config.ts';
import type { Clock } from '../../domain/dates/clock.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { invalidParam, RestError, type Reason } from '../../domain/errors.ts';
import { EXTENSIONS, MIME_TYPES } from '../../domain/media/formats.ts';
import { defaultTitle, fileSlug, fullPath, sizePath, slugCandidates, uploadFolder } from '../../domain/media/naming.ts';
import type { Storage } from '../../storage/database.ts';
import { MediaRepository, type IssuedPath } from '../../storage/repositories/media-repository.ts';
import type { MediaRow, MediaSource, StoredSize } from '../../storage/schema.ts';
import { inTransaction } from '../../storage/transactions.ts';
import type { FileToStore, UploadStore } from '../../storage/uploads/upload-store.ts';
import { inspectImage, processImage, type EncodedFile, type ProcessedImage } from './image-processor.ts';
import { fetchImage, ImageFetchFailedError, ImageUrlNotAllowedError, PUBLIC_NETWORK, type SideloadNetwork } from './image-fetch.ts';
import { ProcessingQueue } from './processing-queue.ts';

export interface UploadInput {
  bytes: Buffer;
  fileName: string;
  title?: string;
  altText?: string;
  author: number;
  source?: MediaSource;
  originalUrl?: string;
  /** Aborted when the client went away: a waiting upload leaves the queue. */
  abandoned?: AbortSignal;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Uploads (110-media §2–§4): checked, processed into WordPress's sizes, stored with their record,
 * and deleted again; the one place that writes media files.
 */
export class MediaService {
  readonly queue: ProcessingQueue;

  constructor(
    private readonly storage: Storage,
    readonly store: UploadStore,
    readonly settings: MediaSettings,
    private readonly siteZone: string,
    private readonly clock: Clock,
    readonly network: SideloadNetwork = PUBLIC_NETWORK,
  ) {
    this.queue = new ProcessingQueue(settings.concurrency);
  }

  get db() {
    return this.storage.db;
  }

  /** Checks, processes and stores an upload; on any failure nothing is stored. */
  async upload(input: UploadInput): Promise<MediaRow> {
    if (input.bytes.length > this.settings.maxBytes) throw new RestError(413, 'rest_upload_file_too_big');
    const inspected = await inspectImage(input.bytes, this.settings.maxPixels);
    const processed = await this.queue.run(() => processImage(inspected), input.abandoned);
    const nowUtc = formatWall(this.clock());
    const folder = uploadFolder(nowUtc, this.siteZone);
    let planned: ReturnType<typeof planFiles> | undefined;
    try {
      return await inTransaction(this.storage.db, async (trx) => {
        const media = new MediaRepository(trx);
        for (const slug of slugCandidates(fileSlug(input.fileName))) {
          planned = planFiles(processed, folder, slug);
          if (!(await media.isIssued(slug, planned.files.map((file) => file.path)))) break;
        }
        const { files, sizes, slug } = planned!;
        const full = processed.full;
        const id = await media.insertUpload({
          source: input.source ?? 'upload',
          originalUrl: input.originalUrl ?? '',
          slug,
          title: input.title ?? defaultTitle(input.fileName),
          altText: input.altText ?? '',
          author: input.author,
          file: files[0].path,
          extension: EXTENSIONS[full.format],
          mimeType: MIME_TYPES[full.format],
          width: full.width,
          height: full.height,
          filesize: full.bytes.length,
          sizes,
          createdUtc: nowUtc,
        }, files.map(issued));
        await this.store.put(trx, id, files, nowUtc);
        return (await media.find(id))!;
      });
    } catch (error) {
      if (planned !== undefined) await this.store.abandon(planned.files.map((file) => file.path));
      throw new RestError(500, 'rest_upload_unknown_error', { cause: error });
    }
  }

  /**
   * An `image` input (110-media §7.2): with `CALENDAR_IMAGE_SIDELOAD` on, an http(s) URL becomes
   * the id of the item fetched from it (reused when fetched before); anything else passes as sent.
   * Runs before the record's write, so a refused image leaves both unwritten.
   */
  async imageInput(value: unknown, author: number): Promise<unknown> {
    if (!this.settings.sideload || typeof value !== 'string' || !/^https?:\/\//i.test(value.trim())) return value;
    const url = value.trim();
    const reused = await new MediaRepository(this.storage.db).findSideloaded(url);
    if (reused !== undefined) return reused;
    try {
      const { bytes, fileName } = await fetchImage(url, this.settings.maxBytes, this.network);
      return (await this.upload({ bytes, fileName, author, source: 'sideload', originalUrl: url })).id;
    } catch (error) {
      const reason = sideloadReason(error);
      throw invalidParam('image', reason, { messageKey: reason.messageKey, vars: reason.vars });
    }
  }

  async find(id: number): Promise<MediaRow> {
    const media = await new MediaRepository(this.storage.db).find(id);
    if (media === undefined) throw new RestError(404, 'rest_post_invalid_id');
    return media;
  }

  async update(id: number, fields: { title?: string; altText?: string }): Promise<MediaRow> {
    return inTransaction(this.storage.db, async (trx) => {
      const media = new MediaRepository(trx);
      if (!(await media.exists(id))) throw new RestError(404, 'rest_post_invalid_id');
      await media.update(id, fields, formatWall(this.clock()));
      return (await media.find(id))!;
    });
  }

  /** Deletes the item (record and links first, then its files); answers it as it was. */
  async delete(id: number): Promise<MediaRow> {
    const { previous, paths } = await inTransaction(this.storage.db, async (trx) => {
      const media = new MediaRepository(trx);
      const previous = await media.find(id);
      if (previous === undefined) throw new RestError(404, 'rest_post_invalid_id');
      const paths = await media.pathsOf(id);
      await media.delete(id);
      await this.store.removeWithin(trx, paths);
      return { previous, paths };
    });
    await this.store.removeAfter(paths);
    return previous;
  }

  /** The bytes and headers' facts of a stored file, or undefined (never issued, deleted, not stored). */
  async file(path: string): Promise<{ issued: IssuedPath; bytes: Buffer } | undefined> {
    const issued = await new MediaRepository(this.storage.db).livePath(path);
    if (issued === undefined) return undefined;
    const bytes = await this.store.read(path);
    return bytes === undefined ? undefined : { issued, bytes };
  }
}

function sideloadReason(error: unknown): Reason {
  if (error instanceof ImageUrlNotAllowedError) return { code: 'image-url-not-allowed', messageKey: 'image-url-not-allowed' };
  if (error instanceof ImageFetchFailedError) return { code: 'image-fetch-failed', messageKey: 'image-fetch-failed', vars: { reason: error.message } };
  if (error instanceof RestError && error.status < 500) return { code: error.code, messageKey: error.messageKey, vars: error.vars };
  throw error;
}

function fileToStore(path: string, file: EncodedFile): FileToStore {
  return { path, mimeType: MIME_TYPES[file.format], bytes: file.bytes, sha256: sha256(file.bytes) };
}

function issued(file: FileToStore): IssuedPath {
  return { path: file.path, mimeType: file.mimeType, byteLength: file.bytes.length, sha256: file.sha256 };
}

/** The files of a processed image under `slug` (full first), and the sizes the record lists. */
function planFiles(processed: ProcessedImage, folder: string, slug: string): { slug: string; files: FileToStore[]; sizes: StoredSize[] } {
  const files = [fileToStore(fullPath(folder, slug, EXTENSIONS[processed.full.format]), processed.full)];
  const byFile = new Map<EncodedFile, FileToStore>();
  const sizes = processed.sizes.map(({ size, file }): StoredSize => {
    let stored = byFile.get(file);
    if (stored === undefined) {
      stored = fileToStore(sizePath(folder, slug, size, EXTENSIONS[file.format]), file);
      byFile.set(file, stored);
      files.push(stored);
    }
    return { name: size.name, width: size.width, height: size.height, mime_type: stored.mimeType, filesize: file.bytes.length, file: stored.path };
  });
  return { slug, files, sizes };
}
