// A node:test reporter that counts what the run did and writes it as JSON (to the destination
// test/run.ts gives it); run.ts prints the short summary once the run has ended. Plain JavaScript:
// node loads reporters before tsx's hooks are in place.

/**
 * The first line of what a failed test threw: node wraps a test's own error (an assertion, a
 * timeout) as the cause of a test failure.
 * @param {any} error
 */
function firstLine(error) {
  const e = error?.cause ?? error;
  if (e === undefined || e === null) return '';
  const text = typeof e === 'object' && 'message' in e ? `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message}` : String(e);
  return text.split('\n').find((l) => l.trim()) ?? '';
}

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* summary(source) {
  const out = { files: [], passed: 0, failed: 0, skipped: [], failures: [], durations: {} };
  const files = new Set();
  for await (const event of source) {
    // Node 20 reports each file as a test named by its path that is complete when the file's
    // process has ended: its duration is the file's wall time, load and start-up included.
    if (event.type === 'test:complete' && event.data.nesting === 0 && /^\/.*\.test\.m?[jt]s$/.test(event.data.name)) {
      out.durations[event.data.name] = event.data.details?.duration_ms ?? 0;
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const data = event.data;
    const file = data.file ?? '';
    if (file) files.add(file);
    const suite = data.details?.type === 'suite';
    if (data.skip !== undefined && data.skip !== false) {
      out.skipped.push({ file, name: data.name, suite, reason: typeof data.skip === 'string' ? data.skip : '(no reason given)' });
      continue;
    }
    // A suite's verdict is its tests': count tests only. A file that fails to load is reported
    // as a failed test of its own, and counts.
    if (suite) continue;
    if (event.type === 'test:pass') out.passed++;
    else {
      out.failed++;
      out.failures.push({ file, name: data.name, error: firstLine(data.details?.error) });
    }
  }
  out.files = [...files].sort();
  yield JSON.stringify(out);
}
