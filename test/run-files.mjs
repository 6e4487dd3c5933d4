// Runs test files in the order given, each in a process of its own, `concurrency` at once: what
// `node --test` does, except that its command line sorts the files by path (Node 20), and test/run.ts
// starts the slowest first so the run does not end waiting on one long file. Reports as the command
// line would: the spec reporter on stdout, test/summary-reporter.mjs to the summary file. Plain
// JavaScript: run.ts starts it with the test processes' own flags (they inherit them), without tsx.
// The options are those `node --test` passes to run() (Node 20: lib/internal/main/test_runner.js).
//
//   node [flags] test/run-files.mjs <concurrency> <file timeout ms> <summary file> <file…>
import { createWriteStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import summary from './summary-reporter.mjs';

const [concurrency, timeout, summaryFile, ...files] = process.argv.slice(2);
let failed = false;
const stream = run({ files, concurrency: Number(concurrency), timeout: Number(timeout) });
const toSpec = new PassThrough({ objectMode: true });
const toSummary = new PassThrough({ objectMode: true });
// As `node --test` decides its exit code: a failing test fails the run unless it is a todo.
stream.on('test:fail', (data) => { if (data.todo === undefined || data.todo === false) failed = true; });
stream.pipe(toSpec);
stream.pipe(toSummary);
await Promise.all([
  pipeline(toSpec, new spec(), process.stdout, { end: false }),
  pipeline(Readable.from(summary(toSummary)), createWriteStream(String(summaryFile))),
]);
process.exitCode = failed ? 1 : 0;
