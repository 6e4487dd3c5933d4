// The notifications outbox (right notifications: it holds mailed links): every notice with its
// status and attempts, filtered in the address; a failed or sent notice sent again
// (POST /admin/v1/notifications/{id}/resend), one or in bulk, behind a confirmation.
import { useState } from 'preact/hooks';
import { admin, qs, when } from '../api.ts';
import { Badge, eachRow, useConfirm } from '../components/actions.tsx';
import { Notice, Page } from '../components/data.tsx';
import { Button } from '../../../ui/form.tsx';
import { type Column, ListView } from '../components/list.tsx';
import { useCan } from '../session.tsx';

interface Notification {
  id: number; account_id: string | null; kind: string; to_email: string; subject: string; body: string;
  status: 'queued' | 'sent' | 'failed'; attempts: number; last_error: string | null; next_attempt_at: string | null; created_at: string; sent_at: string | null;
}

const resend = (n: Notification) => admin.post<{ outcome: string; notification: Notification }>(`/notifications/${n.id}/resend`);
const NOTE = 'A failed notice is queued again (its attempts start over); a sent one is copied as a new notice, the original kept as the record of what went out.';

export function NotificationsPage() {
  const may = useCan();
  const [version, setVersion] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const confirm = useConfirm(() => setVersion((v) => v + 1));
  const write = may('notifications:write');
  const columns: Column<Notification>[] = [
    { label: 'Created', cell: (n) => when(n.created_at) },
    { label: 'To', cell: (n) => <>{n.to_email}{n.account_id && <><br /><a class="small" href={`/admin/accounts/${n.account_id}`}>{n.account_id}</a></>}</> },
    { label: 'Kind', cell: (n) => <code>{n.kind}</code> },
    {
      label: 'Subject',
      cell: (n) => (
        <>
          <button type="button" class="link" aria-expanded={open === n.id} onClick={() => setOpen(open === n.id ? null : n.id)}>{n.subject}</button>
          {open === n.id && <pre class="small message">{n.body}</pre>}
        </>
      ),
    },
    { label: 'Status', cell: (n) => <><Badge value={n.status} /> <span class="small muted">{n.attempts} attempt{n.attempts === 1 ? '' : 's'}</span></> },
    { label: 'Last error', cell: (n) => <span class="small">{n.last_error ?? '—'}</span> },
    { label: 'Sent / next try', cell: (n) => when(n.sent_at ?? n.next_attempt_at) },
    ...(write ? [{
      label: 'Actions',
      cell: (n: Notification) => (n.status === 'queued' ? null : (
        <Button type="button" kind="plain" label={`Resend notice ${n.id}`} onClick={() => confirm.ask({
          title: `Send “${n.subject}” again?`, confirm: 'Resend', body: <p>{NOTE}</p>,
          run: async () => { const r = (await resend(n)).data; return r.outcome === 'copied' ? `Queued as a new notice #${r.notification.id}.` : `Notice #${n.id} queued again.`; },
        })}>Resend</Button>
      )),
    }] : []),
  ];
  return (
    <Page title="Notifications">
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <ListView<Notification> key={version} caption="Notifications" search="Address or subject"
        filters={[
          { name: 'status', label: 'Status', options: ['queued', 'sent', 'failed'].map((s) => ({ value: s, label: s })) },
          { name: 'kind', label: 'Kind', placeholder: 'ticket.answered' },
          { name: 'account_id', label: 'Account', placeholder: 'acc_…' },
        ]}
        load={(p) => admin.get<Notification[]>(`/notifications${qs({ ...p, per_page: 25 })}`)}
        columns={columns} rowKey={(n) => String(n.id)} rowLabel={(n) => `notice ${n.id}`}
        bulk={[{
          label: 'Resend', right: 'notifications:write',
          describe: (rows) => <><p>{NOTE}</p><p>Queued notices among them are refused (the worker may be sending them).</p><p>{rows.length} chosen.</p></>,
          run: (rows) => eachRow(rows, (n) => `#${n.id}`, 'Resent', resend),
        }]}
        empty="No notice matches." />
      {confirm.dialog}
    </Page>
  );
}
