import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/**
 * `npm test`: probes PostgreSQL once and says in one line whether its suites run, then runs every
 * test file with node's test runner. With TEST_POSTGRES_REQUIRED=1 (CI) a missing server fails.
 */
const url = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const required = process.env.TEST_POSTGRES_REQUIRED === '1';

async function reachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const problem = await reachable();
const env = { ...process.env };
if (problem === null) {
  console.log(`PostgreSQL tests: running against ${url.replace(/\/\/[^@]*@/, '//')}`);
  env.TEST_POSTGRES_ACTIVE_URL = url;
} else if (required) {
  console.log(`PostgreSQL tests: REQUIRED but no server answered at ${url} (${problem})`);
  process.exit(1);
} else {
  console.log(`PostgreSQL tests: SKIPPED, no server answered at ${url} (${problem}); set TEST_POSTGRES_URL to run them`);
  delete env.TEST_POSTGRES_ACTIVE_URL;
}

const args = process.argv.slice(2);
// The crash test kills real service processes and has its own script (npm run test:crash).
const files = args.length > 0 ? args.flatMap((path) => (statSync(path).isDirectory() ? testFiles(path).sort() : [path])) : testFiles('test').sort().filter((path) => !path.startsWith(join('test', 'crash')));
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
