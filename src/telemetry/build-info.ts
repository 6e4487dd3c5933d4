// What `hostcloud_build_info` says this process runs: the package's version, Node's, and the
// commit — BUILD_COMMIT when the operator sets it, else asked of git once per process when the
// installation is a checkout (a packed install has no .git: `unknown`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BuildInfo {
  version: string;
  node_version: string;
  commit: string;
}

let fromGit: string | undefined;

function gitCommit(): string {
  if (fromGit === undefined) {
    try {
      const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
      fromGit = /^[0-9a-f]{4,40}$/.test(out) ? out : 'unknown';
    } catch {
      fromGit = 'unknown';
    }
  }
  return fromGit;
}

export function buildInfo(commit?: string): BuildInfo {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return { version, node_version: process.version, commit: commit ?? gitCommit() };
}
