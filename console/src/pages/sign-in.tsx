// Sign in: email and password; then the authenticator app's code, or — for a member without
// two-factor yet — the enrolment it must finish first: QR code and secret, a first code, and the ten
// recovery codes (shown once; Continue opens the console).
import { useEffect, useState } from 'preact/hooks';
import { admin, setCsrf } from '../api.ts';
import { Loading, Notice, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { useSession } from '../session.tsx';

interface Enrolment {
  secret: string;
  uri: string;
  qr_svg: string;
}

function CodeStep() {
  const { refresh } = useSession();
  const [code, setCode] = useState('');
  const f = useForm();
  return (
    <>
      <h1 id="page-title">Two-factor code</h1>
      <p>Enter the 6-digit code of your authenticator app, or one of your recovery codes.</p>
      <Form label="Two-factor code" onSubmit={() => f.submit(async () => {
        const r = await admin.post<{ csrf_token: string }>('/session/code', { code: code.replace(/\s+/g, '') });
        setCsrf(r.data.csrf_token);
        await refresh();
      })}>
        <Field label="Code" name="code" value={code} onValue={setCode} error={f.field('code')} autoComplete="one-time-code" inputMode="numeric" required />
        <FormError error={f.error} fields={['code']} />
        <Button busy={f.busy}>Sign in</Button>
      </Form>
      <p><button type="button" class="link" onClick={async () => { await admin.del('/session'); await refresh(); }}>Use another account</button></p>
    </>
  );
}

function EnrolStep() {
  const { refresh } = useSession();
  const enrolment = useLoad(async () => (await admin.post<Enrolment>('/session/enrolment')).data, []);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const f = useForm();
  useEffect(() => { if (codes) document.getElementById('page-title')?.focus(); }, [codes]);
  if (codes) {
    return (
      <>
        <h1 id="page-title" tabIndex={-1}>Recovery codes</h1>
        <Notice kind="success">Two-factor is on.</Notice>
        <p>Keep these ten codes somewhere safe: each signs you in once if you lose your authenticator app. They are shown only now.</p>
        <ul class="codes" aria-label="Recovery codes">{codes.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
        <Button type="button" onClick={() => void refresh()}>Continue</Button>
      </>
    );
  }
  return (
    <>
      <h1 id="page-title">Set up two-factor</h1>
      <p>The console needs an authenticator app. Scan the QR code (or type the key), then enter the code it shows.</p>
      <Loading state={enrolment}>
        {(e) => (
          <>
            <img class="qr" alt="QR code to add the console to an authenticator app" width={200} height={200}
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(e.qr_svg)}`} />
            <Field label="Key" name="secret" value={e.secret} onValue={() => {}} readOnly hint="For an app that cannot scan" />
            <Form label="Confirm two-factor" onSubmit={() => f.submit(async () => {
              const r = await admin.post<{ recovery_codes: string[]; csrf_token: string }>('/session/enrolment/confirm', { code: code.replace(/\s+/g, '') });
              setCsrf(r.data.csrf_token);
              setCodes(r.data.recovery_codes);
            })}>
              <Field label="Code" name="code" value={code} onValue={setCode} error={f.field('code')} autoComplete="one-time-code" inputMode="numeric" required />
              <FormError error={f.error} fields={['code']} />
              <Button busy={f.busy}>Turn on two-factor</Button>
            </Form>
          </>
        )}
      </Loading>
      {enrolment.error && <p><button type="button" class="link" onClick={async () => { await admin.del('/session'); await refresh(); }}>Start again</button></p>}
    </>
  );
}

export function SignInPage() {
  const { session, refresh } = useSession();
  const [email, setEmail] = useState(() => new URLSearchParams(location.search).get('email') ?? '');
  const [password, setPassword] = useState('');
  const f = useForm();
  if (session.stage === 'totp') return <CodeStep />;
  if (session.stage === 'enrol') return <EnrolStep />;
  return (
    <>
      <h1 id="page-title">Sign in</h1>
      <Form label="Sign in" onSubmit={() => f.submit(async () => {
        const r = await admin.post<{ csrf_token: string }>('/session', { email: email.trim(), password });
        setCsrf(r.data.csrf_token);
        setPassword('');
        await refresh();
      })}>
        <Field label="Email" name="email" type="email" value={email} onValue={setEmail} error={f.field('email')} autoComplete="username" required />
        <Field label="Password" name="password" type="password" value={password} onValue={setPassword} error={f.field('password')} autoComplete="current-password" required />
        <FormError error={f.error} fields={['email', 'password']} />
        <Button busy={f.busy}>Sign in</Button>
      </Form>
      <p class="muted">No password yet? Use the link of your invitation. Lost it? An owner sends a new one.</p>
    </>
  );
}
