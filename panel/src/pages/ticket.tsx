// One ticket: its thread, a reply, and closing it.
import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { v2, when } from '../api.ts';
import { Loading, Page, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { can, useSession } from '../session.tsx';
import type { Data } from '../api-types.ts';

type Detail = Data<'getTicket'>;

export function TicketPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { me } = useSession();
  const ticket = useLoad(async () => (await v2.get<Detail>(`/tickets/${encodeURIComponent(id)}`)).data, [id]);
  const [reply, setReply] = useState('');
  const f = useForm();
  const c = useForm();
  const writable = can(me, 'tickets:write');
  return (
    <Page title={ticket.data ? `#${ticket.data.id} ${ticket.data.subject}` : `Ticket #${id}`}>
      <p><a href="/panel/tickets">← All tickets</a></p>
      <Loading state={ticket}>
        {(t) => (
          <>
            <p><span class={`badge ${t.status}`}>{t.status.replace('_', ' ')}</span> {t.priority} priority{t.department ? ` · ${t.department.name}` : ''} · opened {when(t.created_at)}</p>
            <ol class="thread" aria-label="Messages">
              {t.messages.map((m) => (
                <li key={m.id} class={`message ${m.author}`}>
                  <p class="muted">{m.author === 'staff' ? 'Support' : 'You'} · {when(m.created_at)}</p>
                  <p class="body">{m.message}</p>
                </li>
              ))}
            </ol>
            {writable && t.status !== 'closed' && (
              <>
                <Form label="Reply" onSubmit={() => f.submit(async () => {
                  await v2.post(`/tickets/${t.id}/replies`, { message: reply });
                  setReply('');
                  await ticket.reload();
                })}>
                  <Field label="Reply" name="message" multiline rows={5} value={reply} onValue={setReply} error={f.field('message')} hint="At least 25 characters" required />
                  <FormError error={f.error} fields={['message']} />
                  <Button busy={f.busy}>Send reply</Button>
                </Form>
                <FormError error={c.error} />
                <Button type="button" kind="plain" busy={c.busy} onClick={() => c.submit(async () => { await v2.post(`/tickets/${t.id}/close`); await ticket.reload(); })}>Close ticket</Button>
              </>
            )}
          </>
        )}
      </Loading>
    </Page>
  );
}
