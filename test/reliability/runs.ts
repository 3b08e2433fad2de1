import type { Parameters } from 'fast-check';
import type { DialectName } from '../helpers/databases.ts';

/**
 * Generated cases per route handler: `FC_RUNS` (default 50 on SQLite; PostgreSQL runs a quarter
 * as many, its round trips cost more). The seed is fixed so that CI is repeatable; `FC_SEED`
 * explores other cases, and a failure prints the seed and path that reproduce it. `FC_SHRINK=1`
 * shrinks a failing case (off by default: accepted requests change the data it replays against).
 */
const RUNS = Number(process.env.FC_RUNS ?? 50);
const SEED = Number(process.env.FC_SEED ?? 20_250_412);

export function runsFor(dialect: DialectName): number {
  return dialect === 'sqlite' ? RUNS : Math.max(1, Math.ceil(RUNS / 4));
}

export function fcParameters<T>(dialect: DialectName, salt: number, runs = runsFor(dialect)): Parameters<T> {
  return { seed: SEED + salt, numRuns: runs, endOnFailure: process.env.FC_SHRINK !== '1' };
}
