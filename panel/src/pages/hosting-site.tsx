// A web hosting account's own page: its site (domain, URL, document root, PHP, disk), SFTP with a
// password reset, and its databases (create within the package's limit, reset a password, drop
// after a confirmation). A new password is shown once, here, and kept nowhere. Reached signed in
// (Web hosting → Manage) or through a login link without a panel password: then this browser holds
// a session for this account's page alone (GET /panel/api/hosting-page/{id}) and the page says so.
// Read-only for whoever may only read hosting: the buttons that change things are not shown.
import { useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import type { Data, PanelData } from '../api-types.ts';
import { ApiError, panel, setCsrf, v2, when } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { can, useSession } from '../session.tsx';

type Site = Data<'getWebHostingSite'>;

type LinkSession = PanelData<'GET /hosting-page/{id}'>;

/** The link session this browser holds for the account, or null (404: none). */
async function linkSession(id: string): Promise<LinkSession | null> {
  try {
    return (await panel.get<LinkSession>(`/hosting-page/${encodeURIComponent(id)}`)).data;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** A password just made: shown once, with what it is for. */
function OnePassword({ what, password, onDone }: { what: string; password: string; onDone(): void }) {
  return (
    <div class="notice success" role="status">
      <p>{what}: <code aria-label={what}>{password}</code></p>
      <p class="muted">Shown this once: copy it now. It is not stored anywhere; if it is lost, set a new one.</p>
      <Button type="button" kind="plain" onClick={onDone}>I have copied it</Button>
    </div>
  );
}

function Databases({ site, writable, reload }: { site: Site; writable: boolean; reload(): Promise<void> }) {
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ what: string; password: string } | null>(null);
  const [dropping, setDropping] = useState<string | null>(null);
  const f = useForm();
  const a = useForm();
  const full = site.databases.length >= site.database_limit;
  const prefix = `${site.sftp.username}_`;
  return (
    <>
      <h2>Databases</h2>
      <p class="muted">MariaDB on the hosting server, reached from your site at <code>localhost</code>. Each database has a user of the same name. {site.databases.length} of {site.database_limit} used.</p>
      {shown && <OnePassword what={shown.what} password={shown.password} onDone={() => setShown(null)} />}
      <FormError error={a.error} />
      {site.databases.length === 0 ? <Empty>No databases.</Empty> : (
        <Table caption="Databases" head={writable ? ['Name and user', 'Size', ''] : ['Name and user', 'Size']}>
          {site.databases.map((d) => (
            <tr key={d.name}>
              <td><code>{d.name}</code></td>
              <td>{d.size_mb} MB</td>
              {writable && <td class="actions">
                <Button type="button" kind="plain" busy={a.busy} label={`Reset the password of ${d.name}`} onClick={() => a.submit(async () => {
                  const r = (await v2.post<{ password: string }>(`/web-hosting/${site.id}/databases/${d.name}/password`, {})).data;
                  setShown({ what: `New password of ${d.name}`, password: r.password });
                })}>Reset password</Button>
                {dropping === d.name
                  ? <span class="confirm">Drop {d.name} and every table in it? This cannot be undone.
                    <Button type="button" kind="danger" busy={a.busy} label={`Confirm dropping ${d.name}`} onClick={() => a.submit(async () => {
                      await v2.del(`/web-hosting/${site.id}/databases/${d.name}`);
                      setDropping(null);
                      await reload();
                    })}>Drop it</Button>
                    <Button type="button" kind="plain" onClick={() => setDropping(null)}>Keep</Button></span>
                  : <Button type="button" kind="plain" label={`Drop ${d.name}`} onClick={() => setDropping(d.name)}>Drop</Button>}
              </td>}
            </tr>
          ))}
        </Table>
      )}
      {writable && (full
        ? <p class="muted">The package allows {site.database_limit} database{site.database_limit === 1 ? '' : 's'}: drop one to create another.</p>
        : <Form label="Create a database" onSubmit={() => f.submit(async () => {
          const r = (await v2.post<{ name: string; password: string }>(`/web-hosting/${site.id}/databases`, { name: name.trim() })).data;
          setName('');
          setShown({ what: `Password of the new database ${r.name}`, password: r.password });
          await reload();
        })}>
          <Field label="Database name" name="name" value={name} onValue={setName} error={f.field('name')} required
            hint={`1–16 lower-case letters and digits; it becomes ${prefix}<name>.`} />
          <FormError error={f.error} fields={['name']} />
          <Button busy={f.busy}>Create database</Button>
        </Form>)}
    </>
  );
}

function SiteView({ site, writable, reload }: { site: Site; writable: boolean; reload(): Promise<void> }) {
  const [sftpPassword, setSftpPassword] = useState<string | null>(null);
  const s = useForm();
  const active = site.status === 'active';
  return (
    <>
      {!active && <Notice kind="warning">This account is {site.status}: the site is not served and nothing can be changed.</Notice>}
      <h2>Site</h2>
      <dl class="facts" aria-label="Site">
        <div><dt>Domain</dt><dd>{site.domain}</dd></div>
        <div><dt>Site URL</dt><dd><a href={site.site_url} rel="noreferrer noopener" target="_blank">{site.site_url}</a></dd></div>
        <div><dt>Document root</dt><dd><code>{site.document_root}</code></dd></div>
        <div><dt>PHP version</dt><dd>{site.php_version}</dd></div>
        <div><dt>Disk usage</dt><dd>{site.disk_usage.used_mb} MB of {site.disk_usage.quota_mb} MB{site.disk_usage.enforced ? '' : ' (measured; not enforced by the server)'}</dd></div>
      </dl>
      <h2>SFTP</h2>
      <dl class="facts" aria-label="SFTP">
        <div><dt>Host</dt><dd><code>{site.sftp.host}</code></dd></div>
        <div><dt>Port</dt><dd>{site.sftp.port}</dd></div>
        <div><dt>User</dt><dd><code>{site.sftp.username}</code></dd></div>
      </dl>
      <p class="muted">Upload your site into <code>public_html</code>. The password is never shown again after it is set.</p>
      {sftpPassword && <OnePassword what="New SFTP password" password={sftpPassword} onDone={() => setSftpPassword(null)} />}
      <FormError error={s.error} />
      {writable && active && <Button type="button" busy={s.busy} onClick={() => s.submit(async () => {
        setSftpPassword((await v2.post<{ password: string }>(`/web-hosting/${site.id}/sftp-password`, {})).data.password);
      })}>Reset SFTP password</Button>}
      <Databases site={site} writable={writable && active} reload={reload} />
    </>
  );
}

/** The page's body, once it is known how this browser may use it. */
function HostingSite({ id, writable, link, onLeave }: { id: string; writable: boolean; link: LinkSession | null; onLeave?(): void }) {
  const site = useLoad(async () => (await v2.get<Site>(`/web-hosting/${encodeURIComponent(id)}/site`)).data, [id]);
  const leave = useForm();
  return (
    <Page title={site.data ? `Hosting: ${site.data.domain}` : 'Hosting'} actions={link && <Button type="button" kind="plain" busy={leave.busy} onClick={() => leave.submit(async () => {
      await panel.del(`/hosting-page/${encodeURIComponent(id)}`);
      onLeave?.();
    })}>Leave this page</Button>}>
      {link && <Notice>Opened with a login link: this page shows this hosting account only, until {when(link.expires_at)}.</Notice>}
      {!writable && <Notice kind="info">Read-only: your permissions show this hosting account but do not change it.</Notice>}
      <Loading state={site}>{(s) => <SiteView site={s} writable={writable} reload={site.reload} />}</Loading>
    </Page>
  );
}

/** Signed in: the page, through the panel session (or this browser's link session for it, which the API prefers). */
export function HostingSitePage() {
  const id = useRoute().params.id ?? '';
  const { me } = useSession();
  const link = useLoad(() => linkSession(id), [id]);
  useEffect(() => {
    if (link.data) setCsrf(link.data.csrf_token);
    return () => setCsrf(me.csrf_token);
  }, [link.data]);
  return (
    <Loading state={link}>
      {(l) => <HostingSite id={id} link={l} writable={l ? l.access === 'write' : can(me, 'hosting:write')} onLeave={() => void link.reload()} />}
    </Loading>
  );
}

/** Not signed in: the page of a login link, or a way to sign in when this browser holds none. */
export function HostingLinkPage() {
  const id = useRoute().params.id ?? '';
  const link = useLoad(() => linkSession(id), [id]);
  if (link.data === null) {
    return (
      <Page title="Hosting">
        <p>This page needs a login link or a sign-in. Links work once and for an hour: ask for a new one, or <a href={`/panel/sign-in?next=${encodeURIComponent(`/panel/web-hosting/${id}`)}`}>sign in</a>.</p>
      </Page>
    );
  }
  if (link.data) setCsrf(link.data.csrf_token);
  return <Loading state={link}>{(l) => l && <HostingSite id={id} link={l} writable={l.access === 'write'} onLeave={() => void link.reload()} />}</Loading>;
}
