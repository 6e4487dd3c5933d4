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
