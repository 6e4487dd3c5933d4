// The EPP test registry driven by a client nobody here wrote: Debian's libnet-epp-perl
// (Net::EPP::Simple) connects over TLS with a client certificate (verifying the registry's
// against the test CA), logs in, checks, creates a contact, hosts and a domain, reads it, renews
// it and logs out. Every frame both ways is well-formed XML whose every element is in EPP's namespaces.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { NS, parseEpp, walk } from '../../src/providers/registrar/epp/xml.ts';
import { type RegistryFixture, netEppSkip, run, startRegistryFixture } from '../helpers/epp.ts';

const script = fileURLToPath(new URL('../fixtures/epp/net-epp-client.pl', import.meta.url));
const EPP_NAMESPACES = new Set<string>(Object.values(NS));

describe('EPP test registry with Net::EPP', { skip: netEppSkip }, () => {
  let fx: RegistryFixture;
  before(async () => {
    fx = await startRegistryFixture();
  });
  after(() => fx?.close());

  test('Net::EPP::Simple logs in, checks, creates, reads, renews and logs out', async () => {
    const { host, port, state } = fx.registry;
    const { stdout } = await run('perl', [script, host, String(port), fx.files.ca, fx.files.cert, fx.files.key, 'hostcloud', 'test-password', 'net-epp-conformance.com'], { timeout: 60_000 });
    const steps = stdout.trim().split('\n').map((l) => l.split(' ')[1]);
    assert.deepEqual(steps, ['login', 'check', 'create_contact', 'create_host', 'create_domain', 'check', 'info', 'contact_info', 'renew', 'stale_renew', 'logout']);
    assert.match(stdout, /ok stale_renew code=2306/);
    const d = state.domains.get('net-epp-conformance.com')!;
    assert.equal(d.sponsor, 'hostcloud');
    assert.deepEqual(d.ns, ['ns1.perl-hosts.net', 'ns2.perl-hosts.net']);
    assert.equal(state.counters.domainCreates.get('net-epp-conformance.com'), 1);
    assert.equal(state.counters.renewals.get('net-epp-conformance.com'), 1);
    assert.equal(d.exDate.getUTCFullYear(), new Date().getUTCFullYear() + 3);
  });

  test('every frame both ways is well-formed XML in the EPP namespaces', () => {
    assert.ok(fx.frames.length >= 24, `only ${fx.frames.length} frames`);
    assert.equal(fx.frames[0]!.dir, 'S');
    assert.match(fx.frames[0]!.xml, /<greeting>/);
    for (const f of fx.frames) {
      const root = parseEpp(f.xml);
      for (const e of walk(root)) assert.ok(e.ns && EPP_NAMESPACES.has(e.ns), `<${e.name}> in ${e.ns ?? 'no namespace'} (${f.dir}: ${f.xml.slice(0, 200)})`);
    }
    const clientFrames = fx.frames.filter((f) => f.dir === 'C');
    assert.ok(clientFrames.some((f) => f.xml.includes('<login>')) && clientFrames.some((f) => f.xml.includes('<logout/>')));
  });

  test('a client without a certificate from the test CA is refused at the TLS handshake', async () => {
    const { host, port } = fx.registry;
    await assert.rejects(run('perl', ['-MNet::EPP::Simple', '-e', `Net::EPP::Simple->new(host=>'${host}',port=>${port},user=>'hostcloud',pass=>'test-password',timeout=>5,reconnect=>0,load_config=>0) or die "refused: $Net::EPP::Simple::Error\\n"`], { timeout: 30_000 }), /refused/);
  });
});
