import type { MediaSettings } from '../../config.ts';
import type { Storage } from '../database.ts';
import { DatabaseStore } from './database-store.ts';
import { DirectoryStore } from './directory-store.ts';
import type { UploadStore } from './upload-store.ts';

export function openUploadStore(settings: MediaSettings, storage: Storage): UploadStore {
  return settings.uploads === 'database' ? new DatabaseStore(storage.db) : new DirectoryStore(settings.uploadsDir);
}
