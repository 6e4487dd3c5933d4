// Reading the telemetry of a test app: a metric's value by labels, and its JSON log lines.
import type { TestApp } from '../helpers/app.ts';

/** The value of `name` for the series whose labels include `labels` (0 when there is none). */
export async function metric(t: TestApp, name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = t.telemetry.metrics.registry.getSingleMetric(name);
  if (!m) throw new Error(`no metric ${name}`);
  const { values } = await m.get();
  const want = Object.entries(labels);
  // Histograms: the _count series stands for the histogram.
  const series = values.filter((v) => !('metricName' in v) || v.metricName === name || v.metricName === `${name}_count`);
  const found = series.filter((v) => want.every(([k, x]) => String((v.labels as Record<string, unknown>)[k]) === x)
    && (!('metricName' in v) || v.metricName !== `${name}_sum`));
  const counts = found.filter((v) => 'metricName' in v && v.metricName === `${name}_count`);
  return (counts.length ? counts : found).reduce((s, v) => s + v.value, 0);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LogLine = Record<string, any>;

/** The app's log lines with this `msg`, parsed. */
export function logLines(t: TestApp, msg: string | RegExp): LogLine[] {
  return t.logs.flatMap((chunk) => chunk.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as LogLine)
    .filter((l) => (typeof msg === 'string' ? l.msg === msg : msg.test(String(l.msg))));
}

/** Polls until `check` holds (events of the worker arrive a little after the operation is read as done). */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
