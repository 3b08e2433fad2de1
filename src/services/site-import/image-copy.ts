import type { Kysely } from 'kysely';
import { decodeEntities } from '../../domain/text/entities.ts';
import type { User } from '../../domain/users/user.ts';
import { ImportRecordsRepository } from '../../storage/repositories/import-records-repository.ts';
import { MediaRepository } from '../../storage/repositories/media-repository.ts';
import type { Database } from '../../storage/schema.ts';
import { fetchImage, ImageFetchFailedError, ImageUrlNotAllowedError } from '../media/image-fetch.ts';
import type { MediaService } from '../media/media-service.ts';
import type { SourceClient } from './source.ts';

/** A source image that could not be copied; the record keeps the image by URL (110-media §7.3). */
export class ImageCopyError extends Error {}

/**
 * `--copy-images` (110-media §7.3): each distinct source image fetched once with the sideload
 * rules and processed as an upload by the import's author; the id map (`import_records`, kind
 * `media`) makes a re-run fetch nothing unless the source URL changed.
 */
export class ImageCopier {
  /** Source images copied in this run (by source id, else URL) → local media id. */
  private readonly copied = new Map<string, Promise<number>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly source: string,
    private readonly media: MediaService,
    private readonly client: SourceClient,
    private readonly author: User,
  ) {}

  /** The local media id of a source `image` object; throws ImageCopyError when it cannot be copied. */
  copy(image: { id?: unknown; url: string }): Promise<number> {
    const sourceId = typeof image.id === 'number' && Number.isSafeInteger(image.id) && image.id > 0 ? image.id : undefined;
    const key = sourceId === undefined ? image.url : String(sourceId);
    let copied = this.copied.get(key);
    if (copied === undefined) {
      copied = this.fetchOnce(image.url, sourceId);
      this.copied.set(key, copied);
    }
    return copied;
  }

  private async fetchOnce(url: string, sourceId: number | undefined): Promise<number> {
    const map = new ImportRecordsRepository(this.db, this.source);
    const known = sourceId === undefined ? undefined : (await map.all('media')).get(sourceId);
    if (known !== undefined && known.source_modified_utc === url && (await new MediaRepository(this.db).find(known.local_id)) !== undefined) return known.local_id;
    const reused = await new MediaRepository(this.db).findSideloaded(url);
    if (reused !== undefined) return this.remember(map, sourceId, reused, url);
    let fetched;
    try {
      fetched = await fetchImage(url, this.media.settings.maxBytes, this.media.network);
    } catch (error) {
      if (error instanceof ImageUrlNotAllowedError) throw new ImageCopyError(`${url}: address not allowed`);
      if (error instanceof ImageFetchFailedError) throw new ImageCopyError(`${url}: ${error.message}`);
      throw new ImageCopyError(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const described = sourceId === undefined ? {} : await this.description(sourceId);
    let created;
    try {
      created = await this.media.upload({ bytes: fetched.bytes, fileName: fetched.fileName, author: this.author.id, source: 'sideload', originalUrl: url, ...described });
    } catch (error) {
      throw new ImageCopyError(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.remember(map, sourceId, created.id, url);
  }

  private async remember(map: ImportRecordsRepository, sourceId: number | undefined, localId: number, url: string): Promise<number> {
    // The map's modification column holds the source URL: a changed URL is a new image.
    if (sourceId !== undefined) await map.save('media', sourceId, localId, url);
    return localId;
  }

  /** `alt_text` and `title.rendered` when the source answers `wp/v2/media/{id}`. */
  private async description(sourceId: number): Promise<{ title?: string; altText?: string }> {
    const root = this.source.replace(/\/(tribe|calendar)\/events\/v1\/?$/, '');
    try {
      const response = await this.client.getJson(`${root}/wp/v2/media/${sourceId}`);
      const body = response.body as { alt_text?: unknown; title?: { rendered?: unknown } };
      if (response.status !== 200) return {};
      return {
        ...(typeof body.alt_text === 'string' ? { altText: body.alt_text.slice(0, 1000) } : {}),
        ...(typeof body.title?.rendered === 'string' && body.title.rendered !== '' ? { title: decodeEntities(body.title.rendered).slice(0, 200) } : {}),
      };
    } catch {
      return {};
    }
  }
}
