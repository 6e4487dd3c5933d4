// The simulated platform's console: a tiny line-editing shell, so the web console works end to end
// without a real machine. It understands `echo` (with shell arithmetic `$((…))` of integers),
// `hostname`, `uname`, `whoami`, `date` and `exit`; anything else is "not found", as a shell says.
import { EventEmitter } from 'node:events';
import type { ConsoleStream } from '../types.ts';

/** $((a op b …)) with integers and + - * / % and parentheses, evaluated without eval. */
function arithmetic(expr: string): string {
  const tokens = expr.match(/\d+|[-+*/%()]/g) ?? [];
  if (tokens.join('') !== expr.replace(/\s+/g, '')) return '0';
  let i = 0;
  const atom = (): bigint => {
    const t = tokens[i++];
    if (t === '(') {
      const v = sum();
      i++;
      return v;
    }
    if (t === '-') return -atom();
    return BigInt(t ?? '0');
  };
  const product = (): bigint => {
    let v = atom();
    while (tokens[i] === '*' || tokens[i] === '/' || tokens[i] === '%') {
      const op = tokens[i++];
      const r = atom();
      v = op === '*' ? v * r : r === 0n ? 0n : op === '/' ? v / r : v % r;
    }
    return v;
  };
  const sum = (): bigint => {
    let v = product();
    while (tokens[i] === '+' || tokens[i] === '-') v = tokens[i++] === '+' ? v + product() : v - product();
    return v;
  };
  return sum().toString();
}

function run(line: string, hostname: string): string | null {
  const [cmd, ...rest] = line.trim().split(/\s+/);
  const args = rest.join(' ');
  switch (cmd) {
    case undefined: case '': return '';
    case 'echo': return args.replace(/\$\(\(([^)]*(?:\([^)]*\)[^)]*)*)\)\)/g, (_, e: string) => arithmetic(e)).replace(/^["']|["']$/g, '');
    case 'hostname': return hostname;
    case 'uname': return 'Linux';
    case 'whoami': return 'root';
    case 'date': return new Date().toUTCString();
    case 'exit': return null;
    default: return `sh: ${cmd}: not found`;
  }
}

export function simulatedShell(hostname: string): ConsoleStream {
  const events = new EventEmitter();
  const prompt = `root@${hostname}:~# `;
  let line = '';
  let closed = false;
  const emit = (text: string) => {
    if (!closed) setImmediate(() => events.emit('data', Buffer.from(text.replace(/\n/g, '\r\n'))));
  };
  emit(`Simulated console of ${hostname}\n${prompt}`);
  const close = () => {
    if (closed) return;
    closed = true;
    setImmediate(() => events.emit('close'));
  };
  return {
    write(data) {
      for (const ch of data.toString()) {
        if (ch === '\r' || ch === '\n') {
          const out = run(line, hostname);
          line = '';
          if (out === null) {
            emit('\nlogout\n');
            close();
            return;
          }
          emit(`\n${out ? `${out}\n` : ''}${prompt}`);
        } else if (ch === '\x7f' || ch === '\b') {
          if (line) {
            line = line.slice(0, -1);
            emit('\b \b');
          }
        } else if (ch === '\x03') {
          line = '';
          emit(`^C\n${prompt}`);
        } else if (ch >= ' ') {
          line += ch;
          emit(ch);
        }
      }
    },
    resize() {},
    onData(listener) {
      events.on('data', listener);
    },
    onClose(listener) {
      events.on('close', listener);
    },
    close,
  };
}
