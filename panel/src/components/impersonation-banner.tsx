// The banner every page shows while a staff member is signed in as the customer (GET /panel/api/me
// says so): who, why, whether read-only, and "End" (DELETE /panel/api/session, audited).
import { useState } from 'preact/hooks';
import { ApiError, panel } from '../api.ts';
import { useSession } from '../session.tsx';

export function ImpersonationBanner() {
  const { me, refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const imp = me.impersonation;
  if (!imp) return null;
  async function end() {
    setBusy(true);
    setError(null);
    try {
      await panel.del('/session');
      await refresh();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  }
  return (
    <div class="impersonation" role="region" aria-label="Staff session">
      <p>
        <strong>{imp.staff_name}</strong> (staff) is signed in as this customer{imp.read_only ? ' (read-only)' : ''}.{' '}
        <span class="reason">Reason: {imp.reason}</span>
      </p>
      <button type="button" class="btn danger" disabled={busy} aria-busy={busy || undefined} onClick={end}>End</button>
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}
