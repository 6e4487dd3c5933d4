// Branding (right settings; saving needs settings:write): the name, logo, primary colour and the
// support, terms and privacy addresses customers see — in the panel, in mails, on invoices, the
// checkout and the docs (docs/branding.md). A live preview shows the panel's header and sign-in
// card as they would look; the server checks everything again when saved (an SVG that carries
// script is refused, naming why).
import type { TargetedEvent } from 'preact';
import { useId, useState } from 'preact/hooks';
import { admin, when } from '../api.ts';
import { type Branding, useBranding } from '../branding.tsx';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, fieldError, useForm } from '../../../ui/form.tsx';
import { useCan } from '../session.tsx';

const LOGO_MAX = 256 * 1024;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const FIELDS = ['name', 'logo', 'primary_color', 'support_email', 'support_url', 'terms_url', 'privacy_url'];

export function BrandingPage() {
  const may = useCan();
  const state = useLoad(async () => (await admin.get<Branding>('/settings/branding')).data, []);
  return (
    <Page title="Branding">
      <p><a href="/admin/settings">Settings</a> › Branding</p>
      <Loading state={state}>{(b) => <BrandingForm b={b} write={may('settings:write')} />}</Loading>
    </Page>
  );
}

function readFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error('The file could not be read'));
    r.readAsDataURL(file);
  });
}

function BrandingForm({ b, write }: { b: Branding; write: boolean }) {
  const f = useForm();
  const { saved: tellHeader } = useBranding();
  const fileId = useId();
  const [v, setV] = useState({
    name: b.name, logo: b.logo, primary_color: b.primary_color, support_email: b.support_email ?? '',
    support_url: b.support_url ?? '', terms_url: b.terms_url ?? '', privacy_url: b.privacy_url ?? '',
  });
  const [saved, setSaved] = useState<string | null>(b.updated_at ? null : 'Not saved yet: customers see the defaults.');
  const set = (k: keyof typeof v) => (x: string | null) => { setSaved(null); setV({ ...v, [k]: x }); };

  async function pick(e: TargetedEvent<HTMLInputElement>) {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    if (!['image/png', 'image/svg+xml'].includes(file.type)) return f.setError(fieldError('logo', 'must be a PNG or SVG file'));
    if (file.size > LOGO_MAX) return f.setError(fieldError('logo', `is larger than 256 KB (${Math.ceil(file.size / 1024)} KB)`));
    f.setError(null);
    set('logo')(await readFile(file));
  }

  const nullable = (x: string) => (x.trim() === '' ? null : x.trim());
  return (
    <div class="branding-layout">
      <Form label="Branding" onSubmit={() => f.submit(async () => {
        const r = (await admin.put<Branding>('/settings/branding', {
          name: v.name, logo: v.logo, primary_color: v.primary_color, support_email: v.support_email,
          support_url: nullable(v.support_url), terms_url: nullable(v.terms_url), privacy_url: nullable(v.privacy_url),
        })).data;
        tellHeader(r);
        setSaved(`Saved ${when(r.updated_at)}: the panel shows it at its next load; mails and invoices from now on carry it.`);
      })}>
        {saved && <Notice kind={saved.startsWith('Saved') ? 'success' : 'info'}>{saved}</Notice>}
        <Field label="Name" name="name" value={v.name} onValue={set('name')} readOnly={!write} required error={f.field('name')}
          hint="The panel's header and title, mails' From name and signature, invoices, the checkout and the docs" />
        <div class={`field${f.field('logo') ? ' has-error' : ''}`}>
          <label for={fileId}>Logo</label>
          {write && <input id={fileId} type="file" accept="image/png,image/svg+xml" onChange={pick} aria-describedby={`${fileId}-hint`} />}
          <p class="hint" id={`${fileId}-hint`}>PNG or SVG, at most 256 KB. {v.logo ? 'A logo is set.' : 'No logo.'}</p>
          {write && v.logo && <Button kind="plain" type="button" onClick={() => set('logo')(null)}>Remove logo</Button>}
          {f.field('logo') && <p class="error" role="alert">{f.field('logo')}</p>}
        </div>
        <div class="color-row">
          <Field label="Primary colour" name="primary_color" value={v.primary_color} onValue={set('primary_color')} readOnly={!write} error={f.field('primary_color')} hint="#rrggbb" />
          {write && <input type="color" aria-label="Pick the primary colour" value={COLOR.test(v.primary_color) ? v.primary_color.toLowerCase() : '#1f5fbf'} onInput={(e) => set('primary_color')(e.currentTarget.value)} />}
        </div>
        <Field label="Support email" name="support_email" type="email" value={v.support_email} onValue={set('support_email')} readOnly={!write} required error={f.field('support_email')} />
        <Field label="Support URL" name="support_url" value={v.support_url} onValue={set('support_url')} readOnly={!write} error={f.field('support_url')} hint="Optional, http:// or https://" />
        <Field label="Terms URL" name="terms_url" value={v.terms_url} onValue={set('terms_url')} readOnly={!write} error={f.field('terms_url')} hint="Optional" />
        <Field label="Privacy URL" name="privacy_url" value={v.privacy_url} onValue={set('privacy_url')} readOnly={!write} error={f.field('privacy_url')} hint="Optional" />
        <FormError error={f.error} fields={FIELDS} />
        {write && <Button busy={f.busy}>Save</Button>}
      </Form>
      <Preview name={v.name} logo={v.logo} color={v.primary_color} links={[v.support_url || v.support_email, v.terms_url, v.privacy_url]} />
    </div>
  );
}

/** The panel as customers would see it with these values (before they are saved). */
function Preview({ name, logo, color, links }: { name: string; logo: string | null; color: string; links: string[] }) {
  const brand = COLOR.test(color) ? color : '#1f5fbf';
  const labels = ['Support', 'Terms', 'Privacy'].filter((_, i) => links[i]);
  return (
    <section class="brand-preview" aria-label="Preview" style={{ '--preview-brand': brand }}>
      <h2>Preview</h2>
      <div class="preview-top">
        {logo && <img class="brand-logo" src={logo} alt="" />}
        <span class="preview-name">{name || 'Hostcloud'}</span>
      </div>
      <div class="preview-card">
        <p class="preview-card-brand">{logo && <img class="brand-logo" src={logo} alt="" />}<span>{name || 'Hostcloud'}</span></p>
        <p class="preview-title">Sign in</p>
        <span class="preview-button">Sign in</span>
        <p class="preview-link">Forgot your password?</p>
        {labels.length > 0 && <p class="preview-links">{labels.join(' · ')}</p>}
      </div>
    </section>
  );
}
