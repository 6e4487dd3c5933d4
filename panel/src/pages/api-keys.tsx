// API keys: create (name, allowed IPs — required —, scopes, live or test; the secret shown once in
// the element labelled "Secret"), list (prefix, last used, allowlist), revoke.
import { useState } from 'preact/hooks';
import type { PanelItem } from '../api-types.ts';
import { type ApiError, panel, when } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Checkbox, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { ScopePicker } from '../components/scope-picker.tsx';
import { useSession } from '../session.tsx';

export type ApiKey = PanelItem<'GET /api-keys'>;

const ALLOWLIST_HINT = 'One address or range per line, e.g. 203.0.113.7 or 198.51.100.0/24; use 0.0.0.0/0 to allow every IPv4 address (::/0 every IPv6 one).';

/** The allowlist's lines as typed, and each sent entry's line number (blank lines are not sent). */
function allowlistLines(text: string): { entries: string[]; lineOf: number[] } {
  const entries: string[] = [];
  const lineOf: number[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    if (l.trim()) {
      entries.push(l.trim());
      lineOf.push(i + 1);
    }
  });
  return { entries, lineOf };
}

/** The API names an entry by its index (`ip_allowlist[3]`); the person sees lines: each bad one by number and content, then how to write one. */
function allowlistError(error: ApiError | null, text: string): string | undefined {
  const bad = error?.fields.filter((e) => e.field === 'ip_allowlist' || e.field.startsWith('ip_allowlist[')) ?? [];
  if (bad.length === 0) return undefined;
  const { entries, lineOf } = allowlistLines(text);
  const parts = bad.map((e) => {
    const i = /^ip_allowlist\[(\d+)\]$/.exec(e.field)?.[1];
    if (i === undefined) return `${e.message.charAt(0).toUpperCase()}${e.message.slice(1)}.`;
    return `Line ${lineOf[Number(i)] ?? Number(i) + 1} ("${entries[Number(i)] ?? ''}") is not an IP address or CIDR range.`;
  });
  return `${parts.join(' ')} ${ALLOWLIST_HINT}`;
}

export function ApiKeysPage() {
  const { me } = useSession();
  const keys = useLoad(async () => (await panel.get<ApiKey[]>('/api-keys')).data);
  const [name, setName] = useState('');
  const [ips, setIps] = useState('');
  // The allowlist as last sent: the API's entry indices are read against it, not against later edits.
  const [sentIps, setSentIps] = useState('');
  const [test, setTest] = useState(false);
  const [limit, setLimit] = useState(false);
  const [scopes, setScopes] = useState<string[]>([]);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const f = useForm();
  const r = useForm();
  const sub = me.user?.role === 'sub_user';

  return (
    <Page title="API keys">
      <p>Keys let scripts and tools use the API. Each key works only from the addresses you allow.
        {sub && ' Your keys can do only what your permissions on this account allow.'}</p>
      {created && (
        <Notice kind="success">
          <p>API key <strong>{created.name}</strong> is ready. Copy the secret now: it is shown only once.</p>
          <div class="field">
            <label for="new-secret">Secret</label>
            <input id="new-secret" class="secret" readOnly value={created.secret} onFocus={(e) => e.currentTarget.select()} />
          </div>
          <Button type="button" kind="plain" onClick={() => { void navigator.clipboard?.writeText(created.secret); }}>Copy</Button>
          <Button type="button" kind="plain" onClick={() => setCreated(null)}>Done</Button>
        </Notice>
      )}
      <h2>Create a key</h2>
      <Form label="Create API key" onSubmit={() => f.submit(async () => {
        setSentIps(ips);
        const body = {
          name: name.trim(),
          ip_allowlist: allowlistLines(ips).entries,
          is_test: test,
          ...(limit ? { scopes } : {}),
        };
        const res = await panel.post<ApiKey & { key: string }>('/api-keys', body);
        setCreated({ name: res.data.name, secret: res.data.key });
        setName('');
        setIps('');
        setScopes([]);
        setLimit(false);
        await keys.reload();
      })}>
        <Field label="Name" name="name" value={name} onValue={setName} error={f.field('name')} required />
        <Field label="Allowed IPs" name="ip_allowlist" multiline rows={3} value={ips} onValue={setIps} error={allowlistError(f.error, sentIps)}
          hint="One address or CIDR range per line, IPv4 or IPv6, e.g. 203.0.113.7 or 198.51.100.0/24; 0.0.0.0/0 allows every IPv4 address. At least one." required />
        <Checkbox label="Test key (sandbox: nothing is stored or charged)" name="is_test" checked={test} onChecked={setTest} />
        <Checkbox label="Limit what this key may do" name="limit" checked={limit} onChecked={setLimit} />
        {limit && <ScopePicker legend="Scopes" value={scopes} onChange={setScopes} error={f.field('scopes')} />}
        <FormError error={f.error} fields={['name', 'ip_allowlist', 'scopes', 'is_test']} />
        <Button busy={f.busy}>Create API key</Button>
      </Form>

      <h2>Your keys</h2>
      <FormError error={r.error} />
      <Loading state={keys}>
        {(list) => list.length === 0 ? <Empty>No keys yet.</Empty> : (
          <Table caption="API keys" head={['Name', 'Key', 'Kind', 'Allowed IPs', 'Scopes', 'Last used', 'Status', '']}>
            {list.map((k) => (
              <tr key={k.id}>
                <td>{k.name}{k.sub_user_id !== null && !sub && <span class="muted"> (sub-user {k.sub_user_id})</span>}</td>
                <td><code>{k.prefix}…</code></td>
                <td>{k.is_test ? 'test' : 'live'}</td>
                <td>{k.ip_allowlist.join(', ')}</td>
                <td>{k.scopes === null ? 'all' : k.scopes.length === 0 ? 'none' : k.scopes.join(', ')}</td>
                <td>{when(k.last_used_at)}</td>
                <td><span class={`badge ${k.status}`}>{k.status}</span></td>
                <td>{k.status === 'active' && (
                  revoking === k.id
                    ? <span class="confirm">Revoke {k.name}? <Button type="button" kind="danger" busy={r.busy} onClick={() => r.submit(async () => {
                      await panel.del(`/api-keys/${k.id}`);
                      setRevoking(null);
                      await keys.reload();
                    })}>Confirm revoke</Button> <Button type="button" kind="plain" onClick={() => setRevoking(null)}>Cancel</Button></span>
                    : <Button type="button" kind="plain" label={`Revoke ${k.name}`} onClick={() => setRevoking(k.id)}>Revoke</Button>
                )}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </Page>
  );
}
