import type { Client } from 'pg';
import { cpuUs } from './proc-cpu';

/**
 * CPU µs so far of every PostgreSQL backend connected to one of `databases`, by pid (from pg_stat_activity and
 * /proc): the database work of one server under test, not the whole machine's PostgreSQL.
 */
export async function backendCpu(admin: Client, databases: string[]): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = ANY($1::text[])`, [databases]);
  return new Map(rows.map((r) => [r.pid, cpuUs(r.pid)]).filter(([, us]) => Number.isFinite(us)) as [number, number][]);
}

/** CPU µs the backends used between two snapshots (a backend that appeared counts from zero, one gone is lost). */
export function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, us] of after) sum += us - (before.get(pid) ?? 0);
  return sum;
}
