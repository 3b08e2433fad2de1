import { sql, type Kysely } from 'kysely';

/** A committed write this process described: the one record it changed and which of its columns. */
export interface DescribedWrite {
  kind: 'event';
  id: number;
  columns: readonly string[];
}

/**
 * Whether a cached answer stays true through `writes` (null: some write nobody described), judged
 * by its `survives`; an answer without one survives no write.
 */
export function survivesAll(writes: readonly DescribedWrite[] | null, survives: ((write: DescribedWrite) => boolean) | undefined): boolean {
  return writes !== null && survives !== undefined && writes.every((write) => survives(write));
}

/** What identifies a described transaction to its journal (a change count, a transaction id). */
export type JournalMark = number | string;

/**
 * What a writer tells the cache epochs about its transaction, so that caches may keep what the
 * write cannot have changed (ReadCache's `survives`). A writer that says nothing leaves every cache
 * to be emptied, as any write by another process or instance does.
 */
export interface WriteJournal {
  /** First thing inside the transaction. */
  begin(): JournalMark;
  /** Last thing inside it, before its commit, even when it failed: what it wrote, if it can say. */
  end(trx: Kysely<any>, mark: JournalMark, write: DescribedWrite | undefined): void | Promise<void>;
}

/**
 * Epochs whose explanation is kept: a cache opened less often than that is emptied, and a cached
 * value looked up less often is computed again (each is judged at its next lookup).
 */
const KEPT_EPOCHS = 1024;
/** Described transactions waiting for their epoch. */
const KEPT_WRITES = 256;

/** Which described writes began each recent epoch (null: some write nobody described). */
export class EpochExplanations {
  private readonly explanations = new Map<number, readonly DescribedWrite[] | null>();

  record(epoch: number, writes: readonly DescribedWrite[] | null): void {
    this.explanations.set(epoch, writes);
    this.explanations.delete(epoch - KEPT_EPOCHS);
  }

  /** The described writes that led from epoch `from` to epoch `to`, or null if any is unknown. */
  writesBetween(from: number, to: number): readonly DescribedWrite[] | null {
    if (to - from > KEPT_EPOCHS) return null;
    const writes: DescribedWrite[] = [];
    for (let epoch = from + 1; epoch <= to; epoch++) {
      const explained = this.explanations.get(epoch);
      if (explained == null) return null;
      writes.push(...explained);
    }
    return writes;
  }
}

/**
 * SQLite: the connection counts every row its statements change, triggers included
 * (`total_changes()`), and one transaction at a time has the connection. A described span is
 * therefore exactly its transaction's changes, and the writes between two observed counts are
 * known when described spans chain from one to the other; any gap is a write nobody described.
 */
export class ChangeCountJournal implements WriteJournal {
  /** Where the open described transaction began; set only while it is open. */
  private openFrom: number | undefined;
  private readonly spans = new Map<number, { to: number; write: DescribedWrite }>();

  constructor(
    private readonly count: () => number,
    private readonly inTransaction: () => boolean,
  ) {}

  begin(): number {
    this.openFrom = this.count();
    return this.openFrom;
  }

  end(_trx: Kysely<any>, mark: JournalMark, write: DescribedWrite | undefined): void {
    const from = Number(mark);
    const to = this.count();
    this.openFrom = undefined;
    if (write === undefined || to <= from) return;
    if (this.spans.size >= KEPT_WRITES) this.spans.clear();
    this.spans.set(from, { to, write });
  }

  /**
   * The count as a reader sees it: while a described transaction is open, where it began (what it
   * has changed so far is not committed, hence acknowledged to nobody).
   */
  visibleCount(): number {
    return this.openFrom !== undefined && this.inTransaction() ? this.openFrom : this.count();
  }

  /** The described writes that took the count from `from` to `to`, or null if there is a gap; spans before `to` are forgotten. */
  writesFrom(from: number, to: number): readonly DescribedWrite[] | null {
    const writes: DescribedWrite[] = [];
    for (let at = from; at !== to; ) {
      const span = this.spans.get(at);
      if (span === undefined || span.to > to) return null;
      writes.push(span.write);
      at = span.to;
    }
    for (const start of this.spans.keys()) if (start < to) this.spans.delete(start);
    return writes;
  }
}

/**
 * Transaction ids that a statement of the transaction read anyway (PostgreSQL: an update's
 * row lock), keyed by the transaction's query builder, so that its journal need not ask.
 */
const readTransactionIds = new WeakMap<Kysely<any>, string>();

/** Notes the id of `trx`'s transaction, read by one of its statements. */
export function noteTransactionId(trx: Kysely<any>, transactionId: string): void {
  readTransactionIds.set(trx, transactionId);
}

/**
 * PostgreSQL: each writing transaction's notification names its transaction id (migration 0016),
 * and a described transaction leaves its write here under that id before it commits (one query,
 * only when there is a write to describe and no statement of the transaction read its id).
 */
export class TransactionIdJournal implements WriteJournal {
  private readonly writes = new Map<string, DescribedWrite>();

  begin(): JournalMark {
    return '';
  }

  async end(trx: Kysely<any>, _mark: JournalMark, write: DescribedWrite | undefined): Promise<void> {
    if (write === undefined) return;
    const id = readTransactionIds.get(trx) ?? (await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx)).rows[0].id;
    if (this.writes.size >= KEPT_WRITES) this.writes.clear();
    this.writes.set(id, write);
  }

  /** The write of the transaction a notification named, if it was this process's and described. */
  take(transactionId: string): DescribedWrite | undefined {
    const write = this.writes.get(transactionId);
    this.writes.delete(transactionId);
    return write;
  }
}
