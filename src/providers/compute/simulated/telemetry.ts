// Metrics and traffic of the simulated machines: invented, but plausible and repeatable — the same
// machine gives the same sample within a minute, and a month's traffic only grows.
import { createHash } from 'node:crypto';
import type { SimVm } from '../../../db/schema.ts';
import type { Metrics, Traffic } from '../types.ts';

/** 1 TB a month, the platform's default transfer allowance. */
export const TRAFFIC_QUOTA_BYTES = 1_000_000_000_000;

/** Four numbers in [0, 1) drawn from `seed`. */
function fractions(seed: string): [number, number, number, number] {
  const h = createHash('sha256').update(seed).digest();
  const f = (i: number) => h.readUInt32BE(i * 4) / 2 ** 32;
  return [f(0), f(1), f(2), f(3)];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function metricsOf(vm: SimVm, now: Date): Metrics {
  const minute = Math.floor(now.getTime() / 60_000);
  const [cpu, mem] = fractions(`${vm.id}:${minute}`);
  // Disk fills slowly: fixed per machine and day.
  const [disk] = fractions(`${vm.id}:${Math.floor(minute / 1440)}`);
  const running = vm.power === 'running';
  return {
    cpu_pct: running ? round1(2 + cpu * 60) : 0,
    memory_pct: running ? round1(20 + mem * 55) : 0,
    disk_pct: round1(8 + disk * 50),
    sampled_at: new Date(minute * 60_000),
  };
}

/** "YYYY-MM" → its first instant and the next month's, UTC; null when not a month. */
export function monthBounds(month: string): { start: Date; end: Date } | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  return { start: new Date(Date.UTC(y, mo, 1)), end: new Date(Date.UTC(y, mo + 1, 1)) };
}

/** Bytes moved while the machine existed during the month, up to now, at a rate of its own. */
export function trafficOf(vm: SimVm, month: string, bounds: { start: Date; end: Date }, now: Date): Traffic {
  const from = Math.max(bounds.start.getTime(), vm.created_at.getTime());
  const to = Math.min(bounds.end.getTime(), (vm.destroyed_at ?? now).getTime(), now.getTime());
  const seconds = Math.max(0, (to - from) / 1000);
  const [inRate, outShare] = fractions(`${vm.id}:${month}`);
  // 0.5–12 GB a day in; out is 30–150 % of that.
  const inPerSecond = (0.5e9 + inRate * 11.5e9) / 86_400;
  const inBytes = Math.floor(seconds * inPerSecond);
  return { month, in_bytes: inBytes, out_bytes: Math.floor(inBytes * (0.3 + outShare * 1.2)), quota_bytes: TRAFFIC_QUOTA_BYTES };
}
