// The link of a sign-up: confirms the email, then the person signs in.
import { useRoute } from 'preact-iso';
import { panel } from '../api.ts';
import { Loading, Notice, useLoad } from '../components/data.tsx';

export function VerifyEmailPage() {
  const { params } = useRoute();
  const token = params.token ?? '';
  const state = useLoad(async () => (await panel.post<{ email: string }>(`/links/${encodeURIComponent(token)}/verify-email`)).data, [token]);
  return (
    <>
      <h1 id="page-title">Confirm your email</h1>
      <Loading state={state}>
        {(r) => <Notice kind="success">{r.email} is confirmed. You can sign in now.</Notice>}
      </Loading>
      <p><a class="btn primary" href="/panel/sign-in">Sign in</a></p>
    </>
  );
}
