import type { Storage } from '../../storage/database.ts';

/** Where the change log stands now (a new subscription receives what comes after). */
export async function changeHead(_storage: Storage): Promise<string | null> {
  return null;
}
