import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';
import { listTerms } from '../terms-service.ts';

/** A category of the list's filter select, with its depth in the tree. */
export interface CategoryChoice {
  id: number;
  name: string;
  depth: number;
}

/** Categories for the filter select, parents before their children (at most 500). */
export async function categoryChoices(db: Kysely<Database>, now: Date): Promise<CategoryChoice[]> {
  const { views } = await listTerms(db, 'tribe_events_cat', { page: 1, perPage: 500, hideEmpty: false, orderby: 'name' }, now);
  const children = new Map<number, typeof views>();
  for (const view of views) children.set(view.term.parent, [...(children.get(view.term.parent) ?? []), view]);
  const known = new Set(views.map((view) => view.term.id));
  const out: CategoryChoice[] = [];
  const walk = (parent: number, depth: number) => {
    for (const view of children.get(parent) ?? []) {
      out.push({ id: view.term.id, name: view.term.name, depth });
      walk(view.term.id, depth + 1);
    }
  };
  walk(0, 0);
  // Children whose parent lies beyond the first 500 still appear, at the top level.
  for (const view of views) if (view.term.parent !== 0 && !known.has(view.term.parent)) { out.push({ id: view.term.id, name: view.term.name, depth: 0 }); walk(view.term.id, 1); }
  return out;
}
