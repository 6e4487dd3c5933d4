// Where a run of `hc` reads and writes. The binary passes the process's own; tests pass theirs
// and run commands in-process.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import readline from 'node:readline';
import { Writable } from 'node:stream';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Output goes to a terminal: tables by default. */
  stdoutIsTTY: boolean;
  /** Progress lines go to stderr, and only when it is a terminal. */
  stderrIsTTY: boolean;
  /** A person can answer questions (confirmations, a token typed without echo). */
  stdinIsTTY: boolean;
  readFile(path: string): Promise<string>;
  /** Asks on the terminal and resolves to the answer; `hidden` echoes nothing (a token). */
  prompt(question: string, opts?: { hidden?: boolean }): Promise<string>;
  /** All of standard input (a token piped in). */
  readStdin(): Promise<string>;
  /** Runs a program on this terminal (`hc server ssh`) and resolves to its exit code. */
  exec(command: string, args: string[]): Promise<number>;
  /** Aborted on Ctrl-C (events tail, --wait). */
  signal?: AbortSignal;
}

/** The question on stderr (stdout may be a pipe); the answer read in terminal mode so that `hidden` can mute its echo. */
function ask(question: string, hidden: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  return new Promise<string>((resolve, reject) => {
    rl.on('SIGINT', () => {
      rl.close();
      process.stderr.write('\n');
      reject(new DOMException('interrupted', 'AbortError'));
    });
    rl.question(question, (answer) => {
      muted = false;
      if (hidden) process.stderr.write('\n');
      rl.close();
      resolve(answer);
    });
    // The question itself is echoed; what is typed after it is not.
    muted = hidden;
  });
}

export function processIo(signal?: AbortSignal): Io {
  return {
    stdout: (t) => { process.stdout.write(t); },
    stderr: (t) => { process.stderr.write(t); },
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    readFile: (p) => fs.readFile(p, 'utf8'),
    prompt: (question, opts) => ask(question, opts?.hidden === true),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    exec: (command, args) => new Promise<number>((resolve, reject) => {
      const child = spawn(command, args, { stdio: 'inherit' });
      child.once('error', reject);
      child.once('exit', (code, sig) => resolve(code ?? (sig ? 128 + 2 : 1)));
    }),
    ...(signal ? { signal } : {}),
  };
}
