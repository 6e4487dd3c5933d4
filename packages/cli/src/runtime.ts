// What every command's action uses: the client for the chosen context, the printer for -o and
// --no-header, --wait with its progress line, and the helpers that declare commands with their
// examples (every command's --help ends with some).
import { Command, InvalidArgumentError, Option } from 'commander';
import { Hostcloud, type Operation } from '@hostcloud/sdk';
import { resolveTarget } from './contexts.js';
import { OperationFailed, UsageError } from './errors.js';
import type { Io } from './io.js';
import { type Column, FORMATS, type Printer, parseFormat, printList, printObject } from './output.js';

export interface GlobalOptions {
  context?: string;
  output?: string;
  header: boolean;
  columns?: string;
}

/** Declares a subcommand whose --help ends with examples. */
export function command(parent: Command, spec: string, description: string, examples: string[]): Command {
  return parent
    .command(spec)
    .description(description)
    .addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

/** A command group (hc server, hc domain…): its --help lists the subcommands, then examples. */
export function group(parent: Command, name: string, description: string, examples: string[], alias?: string): Command {
  const g = command(parent, name, description, examples);
  if (alias) g.alias(alias);
  return g;
}

export function int(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number.');
  return Number(value);
}

export function positiveInt(value: string): number {
  const n = int(value);
  if (n < 1) throw new InvalidArgumentError('must be 1 or more.');
  return n;
}

export const collect = <T>(parse: (v: string) => T) => (value: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(value)];

/** --yes, for commands that ask before they destroy something. */
export function yesOption(cmd: Command): Command {
  return cmd.option('-y, --yes', 'do not ask: needed when not on a terminal');
}

/** Commands whose first argument is a server (id or name): completion offers server names there. */
export const TAKES_SERVER = new WeakSet<Command>();

/** --wait and --wait-timeout, for commands that start an operation. */
export function waitOptions(cmd: Command): Command {
  return cmd
    .option('--wait', 'wait until the operation completes (a progress line on a terminal)')
    .addOption(new Option('--wait-timeout <seconds>', 'give up waiting after this long (the operation goes on)').argParser(positiveInt).default(600));
}

export function globalOptions(program: Command): Command {
  return program
    .option('--context <name>', 'the context to use (default: HC_CONTEXT, else the current one)')
    .addOption(new Option('-o, --output <format>', 'table, wide (a table with more columns), json or yaml (default: table on a terminal, json when piped)').choices(FORMATS))
    .option('--columns <names>', 'a list\'s table shows these columns, comma-separated (e.g. name,ipv4,power)')
    .option('--no-header', 'tables without their header line');
}

export class Runtime {
  private hc: Hostcloud | undefined;

  constructor(readonly io: Io) {}

  globals(cmd: Command): GlobalOptions {
    return cmd.optsWithGlobals<GlobalOptions>();
  }

  async client(cmd: Command): Promise<Hostcloud> {
    if (!this.hc) {
      const target = await resolveTarget(this.io.env, this.globals(cmd).context);
      this.hc = new Hostcloud({ baseUrl: target.url, token: target.token });
    }
    return this.hc;
  }

  printer(cmd: Command): Printer {
    const g = this.globals(cmd);
    const columns = g.columns?.split(',').map((c) => c.trim()).filter((c) => c !== '');
    // Columns asked for are a table's, piped too (`hc server list --columns name,ipv4 | …`): JSON
    // would silently drop the choice. An explicit -o still wins.
    const { format, wide } = parseFormat(g.output, this.io.stdoutIsTTY || columns !== undefined);
    return { format, wide, columns, header: g.header, write: (t) => this.io.stdout(t) };
  }

  async print(cmd: Command, data: unknown): Promise<void> {
    await printObject(this.printer(cmd), data);
  }

  /**
   * Asks a person to confirm something that cannot be undone. On a terminal: a y/N question.
   * Otherwise (a script) only `--yes` confirms; without it, exit 2 and nothing done.
   */
  async confirm(cmd: Command, question: string): Promise<void> {
    if (cmd.opts<{ yes?: boolean }>().yes) return;
    if (!this.io.stdinIsTTY) throw new UsageError(`${question} Not confirmed: add --yes (nothing was done)`);
    const answer = (await this.io.prompt(`${question} [y/N] `)).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') throw new UsageError('not confirmed: nothing was done');
  }

  /** Every item of every page, then printed. */
  async printAll<T>(cmd: Command, items: AsyncIterable<T>, columns: Column<T>[]): Promise<void> {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    await printList(this.printer(cmd), all, columns);
  }

  /**
   * Waits for an operation. On a terminal, stderr shows one line redrawn in place with its state,
   * percent and detail, then its final state; when stderr is not a terminal nothing extra is
   * written. A failed operation throws (exit 1).
   */
  async wait(cmd: Command, operation: Operation): Promise<Operation> {
    const { waitTimeout } = cmd.opts<{ waitTimeout?: number }>();
    const tty = this.io.stderrIsTTY;
    const line = (op: Operation) => `${op.id}  ${op.status.padEnd(9)} ${String(op.progress_pct ?? 0).padStart(3)}%  ${op.detail}`;
    if (tty) this.io.stderr(`\r\x1b[K${line(operation)}`);
    const hc = await this.client(cmd);
    let final: Operation;
    try {
      final = await hc.operations.wait(operation.id, {
        timeoutMs: (waitTimeout ?? 600) * 1000,
        // A person watches the line: a short long-poll keeps the percent moving.
        ...(tty ? { longPollS: 1, maxPollIntervalMs: 1_000, onProgress: (op: Operation) => this.io.stderr(`\r\x1b[K${line(op)}`) } : {}),
        ...(this.io.signal ? { signal: this.io.signal } : {}),
      });
    } finally {
      if (tty) this.io.stderr('\r\x1b[K');
    }
    if (tty) this.io.stderr(`${line(final)}\n`);
    if (final.status === 'failed') throw new OperationFailed(final);
    return final;
  }

  /**
   * The end of a command that started an operation: without --wait, what the API answered;
   * with it, once the operation completed, `after()` (the resource as it is now) or the operation.
   */
  async finish(cmd: Command, answer: unknown, operation: Operation, after?: () => Promise<unknown>): Promise<void> {
    if (!cmd.opts<{ wait?: boolean }>().wait) return this.print(cmd, answer);
    const final = await this.wait(cmd, operation);
    await this.print(cmd, after ? await after() : final);
  }
}
