/**
 * SQLite has no transaction id: the first entry of a write transaction takes the next number
 * (inTransaction clears it at the end), so a transaction that writes nothing writes no number
 * either and leaves the cache epoch alone. Migration 0009's triggers run it, and so does an entry
 * written explicitly (changes-repository): one spelling for both.
 */
export const SQLITE_NUMBER_TRANSACTION = 'update feed_tx set next = next + 1, tx = next + 1 where id = 1 and tx is null';
