import { PostgresDialect, PostgresQueryCompiler, SqliteDialect, SqliteQueryCompiler, type QueryCompiler } from 'kysely';

const INT4_MAX = 2_147_483_647;
const INT4_MIN = -2_147_483_648;
const NUL = /\u0000/g;

function outsideInt4(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && (value > INT4_MAX || value < INT4_MIN);
}

function withoutNul(value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replace(NUL, '') : value;
}

/** Whether the compilers write `value` as given: statements built once are filled with such values only (reusable-statements.ts). */
export function writtenAsGiven(value: unknown): boolean {
  return !outsideInt4(value) && withoutNul(value) === value;
}

/*
 * Every query parameter means the same on both dialects, whatever a client sent:
 * - NUL characters are dropped from text: PostgreSQL refuses them in text values (an error
 *   instead of a stored title or a failed lookup), SQLite's string functions stop at them.
 * - On PostgreSQL, an integer beyond its `integer` range goes out as `bigint`: compared with an
 *   `integer` column it would otherwise be refused ("out of range") instead of matching nothing,
 *   as on SQLite. Clients may send any id.
 * Done where the compiler writes each parameter, so that no query's tree is walked or copied
 * for the rare one that needs it.
 */
class PortableSqliteCompiler extends SqliteQueryCompiler {
  protected override appendValue(value: unknown): void {
    super.appendValue(withoutNul(value));
  }
}

class PortablePostgresCompiler extends PostgresQueryCompiler {
  protected override appendValue(value: unknown): void {
    super.appendValue(withoutNul(value));
    if (outsideInt4(value)) this.append('::bigint');
  }
}

export class PortableSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PortableSqliteCompiler();
  }
}

export class PortablePostgresDialect extends PostgresDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PortablePostgresCompiler();
  }
}
