// Webhooks: add an endpoint (URL, events, description; its signing secret shown once in the element
// labelled "Secret"), list them (disabled ones with the service's reason), ping, rotate the
// secret, disable or enable, delete; and an endpoint's delivery log. All through /v2/webhooks with
// the session, so the rules (SSRF checks, quota, event names) are the API's own.
import { useEffect, useState } from 'preact/hooks';
import { v2, when } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Checkbox, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { EVENT_TYPES } from '../event-types.ts';
import { can, useSession } from '../session.tsx';
import type { Item } from '../api-types.ts';

export type Webhook = Item<'listWebhooks'>;

export type Delivery = Item<'listWebhookDeliveries'>;

const STATUS_TEXT: Record<Delivery['status'], string> = { pending: 'pending', succeeded: 'delivered', failed: 'failed' };
/** While a delivery is pending the log is read again this often, so a ping's result shows without a reload. */
const PENDING_REFRESH_MS = 1500;

function Deliveries({ hook }: { hook: Webhook }) {
  const log = useLoad(async () => (await v2.get<Delivery[]>(`/webhooks/${hook.id}/deliveries?per_page=50`)).data, [hook.id]);
  const pending = log.data?.some((d) => d.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(() => { void log.reload(); }, PENDING_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [pending, log.data]);
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title" tabIndex={-1}>Deliveries to {hook.url}</h2>
      <Button type="button" kind="plain" busy={log.loading} onClick={() => { void log.reload(); }}>Refresh deliveries</Button>
      <Loading state={log}>
        {(list) => list.length === 0 ? <Empty>Nothing sent to this endpoint yet.</Empty> : (
          <Table caption="Deliveries" head={['Time', 'Event type', 'Status', 'Attempts', 'Last response']}>
            {list.map((d) => (
              <tr key={d.id}>
                <td>{when(d.created_at)}</td>
                <td><code>{d.event_type}</code></td>
                <td><span class={`badge ${d.status}`}>{STATUS_TEXT[d.status]}</span>
                  {d.status === 'pending' && d.next_attempt_at && <span class="muted"> next try {when(d.next_attempt_at)}</span>}</td>
                <td>{d.attempt}</td>
                <td>{d.response_status ?? '—'}{d.error && <span class="muted"> {d.error}</span>}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </section>
  );
}

export function WebhooksPage() {
  const { me } = useSession();
  const hooks = useLoad(async () => (await v2.get<Webhook[]>('/webhooks?per_page=100')).data);
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<{ url: string; secret: string; rotated: boolean } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [done, setDone] = useState('');
  // Bumped by a ping: the delivery log shown is read afresh.
  const [pings, setPings] = useState(0);
  const f = useForm();
  const a = useForm();
  const writable = can(me, 'webhooks:write');

  useEffect(() => {
    if (shown) document.getElementById('deliveries-title')?.focus();
  }, [shown]);

  const act = (fn: () => Promise<string>) => a.submit(async () => {
    setDone('');
    const message = await fn();
    await hooks.reload();
    setDone(message);
  });
  const toggle = (type: string, on: boolean) => setEvents(on ? [...events, type] : events.filter((e) => e !== type));
  const showSecret = (hook: Webhook, value: string, rotated: boolean) => {
    setSecret({ url: hook.url, secret: value, rotated });
    // The secret is shown once: take the focus there, where it is read or copied.
    setTimeout(() => document.getElementById('new-secret')?.focus(), 0);
  };

  return (
    <Page title="Webhooks">
      <p>Webhooks send events (a server created, a deposit, a ticket answered…) to your URL as they happen, signed as Standard Webhooks
        specifies, and try again when your endpoint does not answer with a 2xx.</p>
      {secret && (
        <Notice kind="success">
          <p>{secret.rotated ? 'New signing secret' : 'Endpoint added'} for <strong>{secret.url}</strong>. Copy the secret now: it is shown only once.
            {secret.rotated && ' The previous secret keeps signing beside it for 24 hours.'}</p>
          <div class="field">
            <label for="new-secret">Secret</label>
            <input id="new-secret" class="secret" readOnly value={secret.secret} onFocus={(e) => e.currentTarget.select()} />
          </div>
          <Button type="button" kind="plain" onClick={() => { void navigator.clipboard?.writeText(secret.secret); }}>Copy</Button>
          <Button type="button" kind="plain" onClick={() => setSecret(null)}>Done</Button>
        </Notice>
      )}
      {writable && (
        <>
          <h2>Add an endpoint</h2>
          <Form label="Add endpoint" onSubmit={() => f.submit(async () => {
            const res = await v2.post<Webhook & { secret: string }>('/webhooks', {
              url: url.trim(),
              events: all ? ['*'] : events,
              ...(description.trim() ? { description: description.trim() } : {}),
            });
            showSecret(res.data, res.data.secret, false);
            setUrl(''); setDescription(''); setAll(true); setEvents([]);
            await hooks.reload();
          })}>
            <Field label="URL" name="url" type="text" value={url} onValue={setUrl} error={f.field('url')} inputMode="text"
              hint="Where events are POSTed: an https URL on the public internet, e.g. https://hooks.example.com/hostcloud" required />
            <fieldset class={`scopes${f.field('events') ? ' has-error' : ''}`}>
              <legend>Events</legend>
              <Checkbox label="All events" name="all_events" checked={all} onChecked={setAll} />
              {!all && (
                <div class="event-grid">
                  {EVENT_TYPES.map((type) => <Checkbox key={type} label={type} name="events" checked={events.includes(type)} onChecked={(on) => toggle(type, on)} />)}
                </div>
              )}
              {f.field('events') && <p class="error" role="alert">{f.field('events')}</p>}
            </fieldset>
            <Field label="Description" name="description" value={description} onValue={setDescription} error={f.field('description')}
              hint="Optional: your note, e.g. what receives it." />
            <FormError error={f.error} fields={['url', 'events', 'description']} />
            <Button busy={f.busy}>Add endpoint</Button>
          </Form>
        </>
      )}

      <h2>Your endpoints</h2>
      {done && <Notice kind="success"><p>{done}</p></Notice>}
      <FormError error={a.error} />
      <Loading state={hooks}>
        {(list) => list.length === 0 ? <Empty>No webhook endpoints yet.</Empty> : (
          <Table caption="Webhook endpoints" head={['URL', 'Events', 'State', 'Added', '']}>
            {list.map((h) => (
              <tr key={h.id}>
                <td><code>{h.url}</code>{h.description && <div class="muted">{h.description}</div>}</td>
                <td>{h.events.includes('*') ? 'all' : h.events.join(', ')}</td>
                <td><span class={`badge ${h.enabled ? 'enabled' : 'disabled'}`}>{h.enabled ? 'enabled' : 'disabled'}</span>
                  {!h.enabled && h.disabled_reason && <div class="muted">{h.disabled_reason}</div>}</td>
                <td>{when(h.created_at)}</td>
                <td>
                  <div class="row-actions">
                    <Button type="button" kind="plain" label={`Deliveries of ${h.url}`} onClick={() => setShown(shown === h.id ? null : h.id)}>
                      {shown === h.id ? 'Hide deliveries' : 'Deliveries'}</Button>
                    {writable && deleting !== h.id && (
                      <>
                        {h.enabled && <Button type="button" kind="plain" busy={a.busy} label={`Ping ${h.url}`} onClick={() => act(async () => {
                          await v2.post(`/webhooks/${h.id}/ping`);
                          setShown(h.id);
                          setPings((n) => n + 1);
                          return `Ping sent to ${h.url}: follow it in its deliveries.`;
                        })}>Ping</Button>}
                        <Button type="button" kind="plain" busy={a.busy} label={`Rotate secret of ${h.url}`} onClick={() => act(async () => {
                          const res = await v2.post<Webhook & { secret: string }>(`/webhooks/${h.id}/rotate-secret`);
                          showSecret(h, res.data.secret, true);
                          return '';
                        })}>Rotate secret</Button>
                        <Button type="button" kind="plain" busy={a.busy} label={`${h.enabled ? 'Disable' : 'Enable'} ${h.url}`} onClick={() => act(async () => {
                          await v2.patch(`/webhooks/${h.id}`, { enabled: !h.enabled });
                          return `${h.url} is ${h.enabled ? 'disabled: nothing is sent to it' : 'enabled again'}.`;
                        })}>{h.enabled ? 'Disable' : 'Enable'}</Button>
                        <Button type="button" kind="plain" label={`Delete ${h.url}`} onClick={() => setDeleting(h.id)}>Delete</Button>
                      </>
                    )}
                    {writable && deleting === h.id && (
                      <span class="confirm">Delete {h.url} and its delivery log? <Button type="button" kind="danger" busy={a.busy} onClick={() => act(async () => {
                        await v2.del(`/webhooks/${h.id}`);
                        setDeleting(null);
                        if (shown === h.id) setShown(null);
                        return `${h.url} was deleted.`;
                      })}>Confirm delete</Button> <Button type="button" kind="plain" onClick={() => setDeleting(null)}>Cancel</Button></span>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
      {shown && hooks.data?.some((h) => h.id === shown) && <Deliveries key={`${shown}-${pings}`} hook={hooks.data.find((h) => h.id === shown)!} />}
    </Page>
  );
}
