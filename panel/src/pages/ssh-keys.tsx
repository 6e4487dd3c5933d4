// SSH keys: add (name, public key), list with fingerprints, delete.
import { useState } from 'preact/hooks';
import { v2, when } from '../api.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { can, useSession } from '../session.tsx';
import type { Item } from '../api-types.ts';

export type SshKey = Item<'listSshKeys'>;

export function SshKeysPage() {
  const { me } = useSession();
  const keys = useLoad(async () => (await v2.get<SshKey[]>('/ssh-keys?per_page=100')).data);
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const f = useForm();
  const d = useForm();
  const writable = can(me, 'ssh_keys:write');
  return (
    <Page title="SSH keys">
      {writable && (
        <>
          <h2>Add a key</h2>
          <Form label="Add SSH key" onSubmit={() => f.submit(async () => {
            await v2.post('/ssh-keys', { name: name.trim(), public_key: key.trim() });
            setName(''); setKey('');
            await keys.reload();
          })}>
            <Field label="Name" name="name" value={name} onValue={setName} error={f.field('name')} required />
            <Field label="Public key" name="public_key" multiline rows={3} value={key} onValue={setKey} error={f.field('public_key')}
              hint="The contents of your .pub file, e.g. ssh-ed25519 AAAA… you@laptop" required />
            <FormError error={f.error} fields={['name', 'public_key']} />
            <Button busy={f.busy}>Add SSH key</Button>
          </Form>
        </>
      )}
      <h2>Your keys</h2>
      <FormError error={d.error} />
      <Loading state={keys}>
        {(list) => list.length === 0 ? <Empty>No SSH keys yet.</Empty> : (
          <Table caption="SSH keys" head={['Name', 'Type', 'Fingerprint', 'Added', '']}>
            {list.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>{k.type}{k.bits ? ` ${k.bits}` : ''}</td>
                <td><code>{k.fingerprint}</code></td>
                <td>{when(k.created_at)}</td>
                <td>{writable && <Button type="button" kind="plain" busy={d.busy} label={`Delete SSH key ${k.name}`} onClick={() => d.submit(async () => { await v2.del(`/ssh-keys/${k.id}`); await keys.reload(); })}>Delete</Button>}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </Page>
  );
}
