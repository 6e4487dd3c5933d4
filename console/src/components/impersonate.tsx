// "Sign in as the customer" on an account's page: a reason (shown to the customer, kept in the
// audit log), then POST /admin/v1/accounts/{id}/impersonation and its single-use link opened in a
// new tab — the customer panel as the account's owner sees it, with a banner and "End". Shown to
// roles holding accounts:read (the route's right) for an active account; the session is read-only
// unless the role writes to customers' accounts (the server decides and the banner says so).
import { useState } from 'preact/hooks';
import { admin } from '../api.ts';
import { useCan } from '../session.tsx';
import { ConfirmDialog } from './dialog.tsx';
import { Button, Field, fieldError } from '../../../ui/form.tsx';

interface Started { url: string; expires_at: string; read_only: boolean }

// (The account as the page's actions slot, account-actions.tsx, hands it; not imported from there: a cycle.)
export function ImpersonateButton({ account }: { account: { id: string; status: string } }) {
  const may = useCan();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [blocked, setBlocked] = useState<Started | null>(null);
  if (!may('accounts:read') || account.status !== 'active') return null;
  return (
    <>
      <Button type="button" kind="plain" onClick={() => { setReason(''); setBlocked(null); setOpen(true); }}>Sign in as the customer</Button>
      <ConfirmDialog open={open} title="Sign in as the customer" confirm="Open the customer panel" onClose={() => setOpen(false)}
        onConfirm={async () => {
          const why = reason.trim();
          if (why.length < 3 || why.length > 500) throw fieldError('reason', 'say why in 3 to 500 characters');
          const started = (await admin.post<Started>(`/accounts/${encodeURIComponent(account.id)}/impersonation`, { reason: why })).data;
          const tab = window.open(started.url, '_blank');
          if (tab) tab.opener = null;
          else setBlocked(started);
        }}>
        <p>The customer panel opens in a new tab as the account's owner sees it, for up to an hour; "End" on its banner
          ends it. The customer sees your name and this reason in their sessions; the start and end are audited.</p>
        <Field label="Reason" name="reason" value={reason} onValue={setReason} required multiline rows={3}
          hint="3 to 500 characters, shown to the customer (a ticket number helps)" />
      </ConfirmDialog>
      {blocked && (
        <p class="notice warning" role="status">
          The browser kept the new tab from opening: <a href={blocked.url} target="_blank" rel="noopener noreferrer">open the customer panel</a>{' '}
          (works once, until {new Date(blocked.expires_at).toLocaleTimeString()}{blocked.read_only ? '; read-only' : ''}).
        </p>
      )}
    </>
  );
}
