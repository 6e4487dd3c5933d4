// One domain: renew (priced by the API first), nameservers, transfer lock, WHOIS privacy, and the transfer (auth) code.
import { useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { v2, when } from '../api.ts';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { Button, Checkbox, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { can, useSession } from '../session.tsx';
import { BuyButton, ConfirmCharge, useCharge } from '../components/charge.tsx';
import type { Domain } from './domains.tsx';
import { DomainDnsLink } from './dns.tsx';
import type { Data } from '../api-types.ts';

export function DomainPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { me } = useSession();
  const domain = useLoad(async () => (await v2.get<Domain>(`/domains/${encodeURIComponent(id)}`)).data, [id]);
  const [ns, setNs] = useState('');
  const [years, setYears] = useState('1');
  const [code, setCode] = useState<string | null>(null);
  const n = useForm();
  const r = useForm();
  const s = useForm();
  const a = useForm();
  useEffect(() => { if (domain.data) setNs(domain.data.nameservers.join('\n')); }, [domain.data]);
  const writable = can(me, 'domains:write');
  const renew = useCharge(() => (writable && domain.data?.status === 'active' ? v2.post(`/domains/${domain.data.id}/renew`, { years: Number(years) }, { dryRun: true }) : null),
    [domain.data, years]);
  return (
    <Page title={domain.data?.domain ?? 'Domain'}>
      <p><a href="/panel/domains">← Domains</a></p>
      <Loading state={domain}>
        {(d) => (
          <>
            <dl class="facts">
              <div><dt>Status</dt><dd><span class={`badge ${d.status}`}>{d.status}</span></dd></div>
              <div><dt>Registered</dt><dd>{when(d.registered_at)}</dd></div>
              <div><dt>Expires</dt><dd>{when(d.expires_at)}</dd></div>
              <div><dt>Renewal</dt><dd>{d.billing.renewal.amount} {d.billing.renewal.currency}/year</dd></div>
            </dl>
            <DomainDnsLink domain={d.domain} />
            {writable && d.status === 'active' && (
              <>
                <h2>Renew</h2>
                <Form label="Renew" onSubmit={() => r.submit(renew.ask)}>
                  <div class="row inline">
                    <Select label="Years to add" name="years" value={years} onValue={setYears} error={r.field('years')} options={[1, 2, 3, 5].map((y) => ({ value: String(y), label: String(y) }))} />
                    <BuyButton charge={renew} busy={r.busy}>Renew</BuyButton>
                  </div>
                  <ConfirmCharge charge={renew} busy={r.busy} what={<>Renewing <strong>{d.domain}</strong> for {years} year{years === '1' ? '' : 's'}</>}
                    onConfirm={() => r.submit(async () => {
                      await v2.post(`/domains/${d.id}/renew`, { years: Number(years) }, { idempotent: true });
                      renew.cancel();
                      await domain.reload();
                    })} />
                  <FormError error={r.error} fields={['years']} />
                </Form>
                <h2>Nameservers</h2>
                <Form label="Nameservers" onSubmit={() => n.submit(async () => {
                  await v2.put(`/domains/${d.id}/nameservers`, { nameservers: ns.split(/\s+/).filter(Boolean) });
                  await domain.reload();
                })}>
                  <Field label="Nameservers" name="nameservers" multiline rows={4} value={ns} onValue={setNs} error={n.field('nameservers')} hint="One per line, 2 to 13" />
                  <FormError error={n.error} fields={['nameservers']} />
                  <Button busy={n.busy}>Save nameservers</Button>
                </Form>
                <h2>Settings</h2>
                <Checkbox label="Transfer lock" name="transfer_lock" checked={d.transfer_lock}
                  onChecked={(on) => void s.submit(async () => { await v2.put(`/domains/${d.id}/lock`, { enabled: on }); await domain.reload(); })} />
                <Checkbox label="WHOIS privacy" name="whois_privacy" checked={d.whois_privacy}
                  onChecked={(on) => void s.submit(async () => { await v2.put(`/domains/${d.id}/whois-privacy`, { enabled: on }); await domain.reload(); })} />
                <FormError error={s.error} />
                <h2>Transfer code</h2>
                {code && <Notice><div class="field"><label for="auth-code">Auth code</label><input id="auth-code" readOnly value={code} /></div></Notice>}
                <FormError error={a.error} />
                <Button type="button" kind="plain" busy={a.busy} onClick={() => a.submit(async () => setCode((await v2.get<Data<'getDomainAuthCode'>>(`/domains/${d.id}/auth-code`)).data.auth_code))}>Show auth code</Button>
              </>
            )}
          </>
        )}
      </Loading>
    </Page>
  );
}
