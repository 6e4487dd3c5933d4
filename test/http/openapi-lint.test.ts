// The generated document, linted by Redocly CLI with the repository's redocly.yaml: no problem
// at all, warnings included. A document with known defects proves the rules really run.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { call, json, startApp } from '../helpers/app.ts';

const run = promisify(execFile);
const CLI = path.resolve('node_modules/@redocly/cli/bin/cli.js');

interface Problem { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }

let dir: string;
let doc: Record<string, unknown>;
before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-lint-'));
  const t = await startApp();
  doc = json(await call(t.app, 'GET', '/v2/openapi.json'));
});
after(() => fs.rm(dir, { recursive: true, force: true }));

async function lint(document: unknown): Promise<Problem[]> {
  const file = path.join(dir, `openapi-${Math.random().toString(36).slice(2)}.json`);
  await fs.writeFile(file, JSON.stringify(document));
  // Exit code 1 when there are errors; the JSON report is on stdout either way.
  const out = await run(process.execPath, [CLI, 'lint', file, '--config', path.resolve('redocly.yaml'), '--format=json', '--max-problems=1000'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((e: { stdout?: string; stderr?: string }) => {
    if (!e.stdout) throw new Error(`redocly did not run: ${e.stderr}`);
    return { stdout: e.stdout };
  });
  return (JSON.parse(out.stdout) as { problems: Problem[] }).problems;
}

test('Redocly (recommended-strict and more, redocly.yaml) finds no problem in /v2/openapi.json', async () => {
  const problems = await lint(doc);
  assert.deepEqual(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`), []);
});

test('the lint really applies the rules: a document without an operationId or a tag description fails', async () => {
  const broken = structuredClone(doc) as { paths: Record<string, Record<string, { operationId?: string }>>; tags: { description?: string }[] };
  delete broken.paths['/servers']!.get!.operationId;
  delete broken.tags[0]!.description;
  const rules = new Set((await lint(broken)).map((p) => p.ruleId));
  assert.ok(rules.has('operation-operationId'), [...rules].join(', '));
  assert.ok(rules.has('tag-description'), [...rules].join(', '));
});
