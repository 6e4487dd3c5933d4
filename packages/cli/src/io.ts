// Where a run of `hc` reads and writes. The binary passes the process's own; tests pass theirs
// and run commands in-process.
import fs from 'node:fs/promises';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Output goes to a terminal: tables by default. */
  stdoutIsTTY: boolean;
  /** Progress lines go to stderr, and only when it is a terminal. */
  stderrIsTTY: boolean;
  readFile(path: string): Promise<string>;
  /** Aborted on Ctrl-C (events tail, --wait). */
  signal?: AbortSignal;
}

export function processIo(signal?: AbortSignal): Io {
  return {
    stdout: (t) => { process.stdout.write(t); },
    stderr: (t) => { process.stderr.write(t); },
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    readFile: (p) => fs.readFile(p, 'utf8'),
    ...(signal ? { signal } : {}),
  };
}
