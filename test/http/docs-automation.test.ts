// /v2/docs/automation, "Automating with the SDK and CLI": served like the error catalog (public,
// its own CSP, Markdown rendered with raw HTML escaped), linked from the reference's overview,
// its links lead to pages that exist, and every `hc` command it shows is a command of hc.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, json, startApp } from '../helpers/app.ts';
import { hc } from '../helpers/hc.ts';

const t = await startApp();

test('the page: public HTML, its own CSP, the headings, this service\'s URL in the examples', async () => {
  const res = await call(t.app, 'GET', '/v2/docs/automation');
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  for (const h of ['Automating with the SDK and CLI', 'Installing', 'The command line: hc', 'The SDK: @hostcloud/sdk', 'Receiving webhooks']) {
    assert.ok(res.body.includes(`>${h.replace('&', '&amp;')}</h`), h);
  }
  assert.ok(res.body.includes('hc context add prod --url http://api.test '));
  assert.ok(res.body.includes('baseUrl: &#39;http://api.test&#39;') || res.body.includes("baseUrl: 'http://api.test'"));
  assert.doesNotMatch(res.body, /<script/);

  // Linked from the overview of the reference.
  const doc = json(await call(t.app, 'GET', '/v2/openapi.json'));
  assert.match(doc.info.description, /\[Automating with the SDK and CLI\]\(http:\/\/api\.test\/v2\/docs\/automation\)/);

  // Its relative links resolve to pages of this service.
  const links = [...res.body.matchAll(/href="([^"#]+)"/g)].map((m) => new URL(m[1]!, 'http://api.test/v2/docs/automation').pathname);
  assert.ok(links.length >= 3);
  for (const path of new Set(links)) assert.equal((await call(t.app, 'GET', path)).statusCode, 200, path);
});

test('every hc command the page shows exists (its --help exits 0)', async () => {
  const { automationMarkdown } = await import('../../src/http/docs/automation-page.ts');
  const md = automationMarkdown('http://api.test');
  const code = md.split(/^```.*$/m).filter((_, i) => i % 2 === 1).join('\n');
  const fromCode = code.split('\n').flatMap((l) => l.split(/;|\$\(|\| /)).map((l) => l.trim()).filter((l) => l.startsWith('hc '));
  // The table's `hc group a|b|c` (and `hc dns zone a|b`) cells name several commands each: the last word's alternatives.
  const fromTable = [...md.matchAll(/`(hc [a-z-]+(?: [a-z-]+)*(?:\\\|[a-z-]+)*)/g)].flatMap((m) => {
    const [, words, subs] = /^hc ((?:[a-z-]+ )*)([a-z-]+(?:\\\|[a-z-]+)*)$/.exec(m[1]!)!;
    return subs!.split('\\|').map((s) => `hc ${words}${s}`);
  });
  const commands = new Set([...fromCode, ...fromTable].map((l) => l.split(' ').slice(1).filter((w, i, all) => /^[a-z][a-z-]*$/.test(w) && all.slice(0, i).every((x) => /^[a-z][a-z-]*$/.test(x))).slice(0, 3).join(' ')));
  assert.ok(commands.has('dns record update'), [...commands].join(', '));
  assert.ok(commands.size >= 20, [...commands].join(', '));
  for (const c of commands) {
    const words = c.split(' ');
    // A group's own word that is not a subcommand (`hc balance`, `hc plan list`) still answers --help.
    const r = await hc([...words, '--help']);
    assert.equal(r.code, 0, `hc ${c} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^Usage: hc ${words[0]}`));
  }
});
