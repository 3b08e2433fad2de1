import BetterSqlite3 from 'better-sqlite3';

/**
 * 140 §3.4: every service process holds a shared lock on `{db}.lock` — a tiny SQLite database in
 * rollback-journal mode beside the data file — through a read transaction kept open for its whole
 * life. The kernel drops the lock when the process ends, SIGKILL included, so there is no stale
 * lock to clean up; `calendar restore` asks for the exclusive lock to learn whether a service runs.
 */
export function serviceLockPath(databasePath: string): string {
  return `${databasePath}.lock`;
}

export interface HeldLock {
  release(): void;
}

function isBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED');
}

/** Opens the lock database and runs `take` in it; null when another process holds a conflicting lock. */
function lock(databasePath: string, take: (connection: BetterSqlite3.Database) => void): HeldLock | null {
  const connection = new BetterSqlite3(serviceLockPath(databasePath));
  connection.pragma('busy_timeout = 0');
  try {
    take(connection);
  } catch (error) {
    connection.close();
    if (isBusy(error)) return null;
    throw error;
  }
  return {
    release() {
      if (connection.inTransaction) connection.exec('rollback');
      connection.close();
    },
  };
}

/** The shared lock of a running service; null while a restore holds the exclusive one. */
export function holdServiceLock(databasePath: string): HeldLock | null {
  return lock(databasePath, (connection) => {
    connection.exec('begin');
    // A read takes the SHARED lock; the open transaction keeps it.
    connection.prepare('select count(*) from sqlite_master').get();
  });
}

/** The exclusive lock: held, no service can run or start on the database; null when one runs. */
export function takeExclusiveServiceLock(databasePath: string): HeldLock | null {
  return lock(databasePath, (connection) => connection.exec('begin exclusive'));
}
