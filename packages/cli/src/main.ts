// The `hc` binary: run() on the process's arguments and streams. Ctrl-C cancels what is running
// (a --wait, events tail) and exits 130; a second Ctrl-C exits at once.
import { EXIT, processIo, run } from './run.js';

const interrupt = new AbortController();
process.once('SIGINT', () => {
  interrupt.abort(new DOMException('interrupted', 'AbortError'));
  process.once('SIGINT', () => process.exit(EXIT.interrupted));
});
// `hc events tail | head -1`: the reader went away; that ends the command, quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(EXIT.ok);
  throw e;
});

run(process.argv.slice(2), processIo(interrupt.signal)).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => {
    process.stderr.write(`hc: unexpected error: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = EXIT.apiError;
  },
);
