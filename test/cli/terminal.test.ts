// `hc server create … --wait` typed into a real terminal (tmux): the progress line shows the
// operation's state, percent and detail while it runs, redrawn in place, then its final state,
// and the server is printed as a table. Everything the terminal received is recorded
// (pipe-pane) to see each redraw; the screen (capture-pane) shows what the person sees at the end.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { createCustomer, startApp } from '../helpers/app.ts';
import { HC_NODE_ARGS, ROOT, configHome } from '../helpers/hc.ts';
import { PASSWORD } from '../helpers/servers.ts';

const run = promisify(execFile);
const hasTmux = await run('tmux', ['-V']).then(() => true, () => false);

test('a terminal shows the --wait progress line (percent and detail), then the active server', { skip: hasTmux ? false : 'tmux is not installed' }, async () => {
  // Each simulated provisioning step takes 600 ms: long enough to watch it move.
  const t = await startApp({ worker: 'embedded', simDelayMs: 600 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const c = await createCustomer(t, { deposit: '50.00' });
  const home = await configHome();
  const socket = `hc-test-${randomBytes(4).toString('hex')}`;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-tty-'));
  const record = path.join(dir, 'terminal.log');
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, '-f', '/dev/null', ...args]);
  after(async () => {
    await tmux('kill-server').catch(() => {});
    await fs.rm(dir, { recursive: true, force: true });
  });

  const hcCommand = [process.execPath, ...HC_NODE_ARGS].map((a) => `'${a}'`).join(' ');
  await tmux('new-session', '-d', '-x', '160', '-y', '50', '-c', ROOT, '-e', `HC_URL=http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`,
    '-e', `HC_TOKEN=${c.key}`, '-e', `XDG_CONFIG_HOME=${home}`, 'bash --norc --noprofile');
  await tmux('pipe-pane', '-o', `cat >> '${record}'`);
  await tmux('send-keys', `hc() { ${hcCommand} "$@"; }; clear`, 'Enter');
  await tmux('send-keys', `hc server create --name tty-1.example.com --plan 1 --location 1 --os 1 --password '${PASSWORD}' --wait; echo "EXIT=$?"`, 'Enter');

  // Done once the shell has printed the exit status (a terminal offers no event to await).
  const deadline = Date.now() + 60_000;
  let screen = '';
  while (!/^EXIT=\d+$/m.test(screen)) {
    assert.ok(Date.now() < deadline, `no exit status after 60 s; screen:\n${screen}`);
    await new Promise((r) => setTimeout(r, 200));
    screen = (await tmux('capture-pane', '-p')).stdout;
  }
  assert.match(screen, /^EXIT=0$/m);
  // The final state stays on the screen, above the server's fields.
  assert.match(screen, /^op_\w+ +completed +100% +\S.*$/m);
  assert.match(screen, /^FIELD +VALUE$/m);
  assert.match(screen, /^name +tty-1\.example\.com$/m);
  assert.match(screen, /^status +active$/m);

  // What the terminal received: the line redrawn in place (\r, erase line) while it ran.
  const raw = await fs.readFile(record, 'utf8');
  const frames = raw.split('\r\x1b[K').map((f) => f.replace(/\r?\n[\s\S]*$/, '')).filter((f) => /^op_\w+ /.test(f));
  const running = frames.filter((f) => /^op_\w+ +running +\d+% +\S/.test(f));
  assert.ok(running.length >= 1, `no running progress frame among:\n${frames.join('\n')}`);
  const percents = running.map((f) => Number(/(\d+)%/.exec(f)![1]));
  assert.ok(percents.some((p) => p > 0 && p < 100), `percents ${percents.join(', ')}`);
  assert.deepEqual([...percents].sort((a, b) => a - b), percents, 'the percent never goes back');
});

test('a terminal: hc context add asks for the token without echoing it; hc server delete asks y/N, n keeps the server, y deletes it; the generated password is shown on stderr', { skip: hasTmux ? false : 'tmux is not installed' }, async () => {
  const t = await startApp({ worker: 'embedded', simDelayMs: 20 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const c = await createCustomer(t, { deposit: '50.00' });
  const home = await configHome();
  const socket = `hc-test-${randomBytes(4).toString('hex')}`;
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, '-f', '/dev/null', ...args]);
  after(() => tmux('kill-server').catch(() => {}));
  const hcCommand = [process.execPath, ...HC_NODE_ARGS].map((a) => `'${a}'`).join(' ');
  await tmux('new-session', '-d', '-x', '200', '-y', '50', '-c', ROOT, '-e', `XDG_CONFIG_HOME=${home}`, 'bash --norc --noprofile');
  await tmux('send-keys', `hc() { ${hcCommand} "$@"; }; clear`, 'Enter');
  /** Types a line, then waits until the screen matches (a terminal offers no event to await). */
  const screenUntil = async (pattern: RegExp, what: string) => {
    const deadline = Date.now() + 60_000;
    let screen = '';
    while (!pattern.test(screen)) {
      assert.ok(Date.now() < deadline, `${what}: not on the screen after 60 s:\n${screen}`);
      await new Promise((r) => setTimeout(r, 200));
      screen = (await tmux('capture-pane', '-p', '-S', '-50')).stdout;
    }
    return screen;
  };
  const typed = async (line: string) => {
    await tmux('send-keys', '-l', line);
    await tmux('send-keys', 'Enter');
  };

  await typed(`hc context add local --url ${url}; echo "EXIT1=$?"`);
  await screenUntil(/API token:\s*$/m, 'the token question');
  await typed(c.key);
  let screen = await screenUntil(/^EXIT1=\d+$/m, 'context add');
  assert.match(screen, /^EXIT1=0$/m);
  assert.ok(!screen.includes(c.key), `the token was echoed:\n${screen}`);

  await typed(`hc server create --name tty-del.example.com --plan 'Cloud S' --location fra1 --os debian-12 --wait -o table > /dev/null; echo "EXIT2=$?"`);
  screen = await screenUntil(/^EXIT2=\d+$/m, 'create');
  assert.match(screen, /^EXIT2=0$/m);
  assert.match(screen, /^root password \(generated, shown only now\): \S{24}$/m);

  await typed('hc server delete tty-del.example.com; echo "EXIT3=$?"');
  await screenUntil(/Delete server tty-del\.example\.com \(srv_\w+\)\?.*\[y\/N\]\s*$/m, 'the delete question');
  await typed('n');
  screen = await screenUntil(/^EXIT3=\d+$/m, 'delete refused');
  assert.match(screen, /^EXIT3=2$/m);
  assert.match(screen, /not confirmed: nothing was done/);

  await typed('hc server delete tty-del.example.com -o json | grep -c "\\"deleted\\""; echo "EXIT4=${PIPESTATUS[0]}"');
  await screenUntil(/\[y\/N\]\s*$/m, 'the delete question again');
  await typed('y');
  screen = await screenUntil(/^EXIT4=\d+$/m, 'delete');
  assert.match(screen, /^EXIT4=0$/m);
  assert.match(screen, /^1$/m);
});
