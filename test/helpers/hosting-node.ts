// The test hosting node (hosting-node-setup.ts) for test files: the file is skipped with one line
// without root, the daemons or MariaDB — unless HOSTING_TESTS=required (CI), where that fails it —
// and every node a file starts is stopped and cleaned up when the file ends.
import { after } from 'node:test';
import { type TestNode, hostingProblem, startHostingNode as start } from './hosting-node-setup.ts';

export type { TestNode };
export { freePort } from './hosting-node-setup.ts';

if (hostingProblem && process.env.HOSTING_TESTS === 'required') throw new Error(`HOSTING_TESTS=required but ${hostingProblem}`);
/** `skip` for the file's suite: false, or why it is skipped. */
export const hostingSkip: string | false = hostingProblem ? `native hosting tests skipped: ${hostingProblem}` : false;

const nodes: TestNode[] = [];
// At import (the file's root context): an `after` registered inside a `before` would run right after it.
after(async () => {
  for (const n of nodes.splice(0)) await n.stop();
});

export async function startHostingNode(): Promise<TestNode> {
  const node = await start();
  nodes.push(node);
  return node;
}
