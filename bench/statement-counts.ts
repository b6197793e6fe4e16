import { createRequire } from 'node:module';

/**
 * Wraps better-sqlite3's statements (the copy core loads) to count executions and returned rows
 * per SQL text, for the in-process profiles (profile-send.ts, profile-history.ts). With
 * `splitCommit`, the CPU spent in `exec` (BEGIN, COMMIT) is measured apart.
 */
export function countStatements({ splitCommit = false } = {}) {
  const require = createRequire(new URL('../packages/core/package.json', import.meta.url));
  const Database = require('better-sqlite3') as { prototype: { prepare(sql: string): Record<string, (...a: unknown[]) => unknown> } };
  // BENCH_STATEMENT_TIMES=1: wall µs inside each statement too (performance.now, cheap next to a syscall).
  const timed = process.env.BENCH_STATEMENT_TIMES === '1';
  const stats = new Map<string, { runs: number; rows: number; µs: number }>();
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: unknown, sql: string) {
    const statement = prepare.call(this, sql);
    const key = sql.replace(/\s+/g, ' ').trim();
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = statement[method]?.bind(statement);
      if (!original) continue;
      statement[method] = (...args: unknown[]) => {
        const started = timed ? performance.now() : 0;
        const result = original(...args);
        const entry = stats.get(key) ?? { runs: 0, rows: 0, µs: 0 };
        if (timed) entry.µs += (performance.now() - started) * 1000;
        entry.runs++;
        entry.rows += method === 'all' ? (result as unknown[]).length : method === 'get' ? (result === undefined ? 0 : 1) : 0;
        stats.set(key, entry);
        return result;
      };
    }
    return statement;
  };
  const execs = new Map<string, number>();
  const execTimes = new Map<string, number>();
  let execCpu = 0;
  const exec = (Database.prototype as unknown as { exec(sql: string): unknown }).exec;
  (Database.prototype as unknown as { exec(sql: string): unknown }).exec = function (this: unknown, sql: string) {
    execs.set(sql, (execs.get(sql) ?? 0) + 1);
    if (timed) {
      const started = performance.now();
      try {
        return exec.call(this, sql);
      } finally {
        execTimes.set(sql, (execTimes.get(sql) ?? 0) + (performance.now() - started) * 1000);
      }
    }
    if (!splitCommit) return exec.call(this, sql);
    const before = process.cpuUsage();
    try {
      return exec.call(this, sql);
    } finally {
      const used = process.cpuUsage(before);
      execCpu += used.user + used.system;
    }
  };
  return {
    takeExecCpu(): number {
      const taken = execCpu;
      execCpu = 0;
      return taken;
    },
    reset: () => { stats.clear(); execs.clear(); execTimes.clear(); execCpu = 0; },
    print(n: number, unit = 'send') {
      const rows = [...stats].sort((a, b) => b[1].runs - a[1].runs || b[1].rows - a[1].rows);
      let runs = 0;
      let read = 0;
      console.log(`per ${unit}: runs  rows  statement`);
      for (const [sql, s] of rows) {
        runs += s.runs;
        read += s.rows;
        const time = timed ? `${(s.µs / n).toFixed(1).padStart(7)} µs ` : '';
        console.log(`${(s.runs / n).toFixed(2).padStart(9)} ${(s.rows / n).toFixed(1).padStart(6)}  ${time}${sql.slice(0, 140)}`);
      }
      for (const [sql, c] of execs) {
        const time = timed ? `${((execTimes.get(sql) ?? 0) / n).toFixed(1).padStart(7)} µs ` : '';
        console.log(`${(c / n).toFixed(2).padStart(9)}   exec  ${time}${sql.slice(0, 60)}`);
      }
      console.log(`total per ${unit}: ${(runs / n).toFixed(1)} prepared statements, ${(read / n).toFixed(1)} rows returned`);
    },
  };
}
