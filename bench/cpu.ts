import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time read from /proc (Linux): a process tree's, for the service and its workers, and the
 * PostgreSQL server's, for one database. The benches compare these with the wall time of a load
 * to tell how many of the machine's cores each process kept busy.
 */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The fields of /proc/PID/stat after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process ended while the tree was read
  }
}

/** User + system CPU seconds of `root` and every process below it (the cluster's workers). */
export function treeCpuSeconds(root: number): number {
  const parents = new Map<string, string>();
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const fields = statFields(pid);
    if (!fields) continue;
    // After the name: state(0) ppid(1) … utime(11) stime(12).
    parents.set(pid, fields[1]);
    ticks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  const inTree = new Set([String(root)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of inTree) total += ticks.get(pid) ?? 0;
  return total / TICKS_PER_SECOND;
}

/**
 * User + system CPU seconds of the PostgreSQL server's processes that work for `databaseUrl`'s
 * database: its backends (titled "postgres: [CLUSTER: ]USER DATABASE HOST(PORT) …") and the
 * server's own (WAL writer, checkpointer, …), which other databases share — the bench runs alone.
 * 0 for SQLite, which runs inside the service.
 */
export function databaseServerCpuSeconds(databaseUrl: string): number {
  if (!databaseUrl.startsWith('postgres')) return 0;
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let title: string;
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!title.startsWith('postgres: ')) continue;
    const backend = /^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(title);
    if (backend !== null && backend[1] !== database) continue;
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}
