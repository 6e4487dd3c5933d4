// The hosting page's resources: the site of a web hosting account and the passwords its actions
// answer with (once: they are in no other answer, list, log or event).
import { Type } from '@sinclair/typebox';
import type { HostingSite } from '../../../core/hosting/site.ts';
import { HOSTING_STATUSES } from '../../../core/hosting/rules.ts';
import { StringEnum, component } from '../../schemas.ts';
import { WebHostingParams } from './presenters.ts';

const Password = Type.String({ description: 'The new password, shown this once: it is not stored and no later answer shows it.', examples: ['q7XkR2mVb9xTw4LpZc8a'] });

export const HostingSiteSchema = component('HostingSite', Type.Object({
  id: Type.String({ examples: ['wh_9GmT4xQ2bLk7Rs1P'] }),
  status: StringEnum(HOSTING_STATUSES, { description: 'active, or suspended (then the site is not served and nothing can be changed).' }),
  domain: Type.String({ examples: ['example.com'] }),
  site_url: Type.String({ description: 'Where the site is served.', examples: ['https://example.com/'] }),
  document_root: Type.String({ description: 'The directory the site is served from: upload files there.', examples: ['/srv/hosting/example/public_html'] }),
  php_version: Type.String({ examples: ['8.2'] }),
  sftp: Type.Object({
    host: Type.String({ examples: ['web1.fra1.hostcloud.example'] }),
    port: Type.Integer({ examples: [22] }),
    username: Type.String({ examples: ['example'] }),
  }, { description: 'Where to upload files. The password is set with `resetWebHostingSftpPassword`.' }),
  disk_usage: Type.Object({
    used_mb: Type.Integer({ minimum: 0, examples: [412] }),
    quota_mb: Type.Integer({ minimum: 0, examples: [10240] }),
    enforced: Type.Boolean({ description: 'true when the node\'s filesystem enforces the quota; false when usage is only measured.' }),
  }),
  databases: Type.Array(Type.Object({
    name: Type.String({ description: 'The database, also its user\'s name: `<user>_<name>`.', examples: ['example_main'] }),
    size_mb: Type.Number({ minimum: 0, examples: [1.5] }),
  }), { description: 'The account\'s MariaDB databases, by name. Passwords are never listed.' }),
  database_limit: Type.Integer({ minimum: 0, description: 'How many databases the package allows.', examples: [3] }),
}, { description: 'A web hosting account\'s site, as its hosting page shows it: never a password.' }));

export const HostingSftpPasswordSchema = component('HostingSftpPassword', Type.Object({
  username: Type.String({ examples: ['example'] }),
  password: Password,
}, { description: 'The account\'s new SFTP password; the previous one no longer works.' }));

export const HostingDatabaseCredentialsSchema = component('HostingDatabaseCredentials', Type.Object({
  name: Type.String({ description: 'The database and its user.', examples: ['example_shop'] }),
  username: Type.String({ description: 'The MariaDB user: the database\'s name.', examples: ['example_shop'] }),
  host: Type.String({ description: 'Where a site on the account reaches MariaDB.', examples: ['localhost'] }),
  password: Password,
}, { description: 'A database\'s credentials with its new password.' }));

export const HostingDatabaseDroppedSchema = component('HostingDatabaseDropped', Type.Object({
  name: Type.String({ examples: ['example_shop'] }),
  dropped: Type.Boolean({ description: 'Always true: the database, its tables and its user are gone.' }),
}, { description: 'A dropped database.' }));

/** The full name of one of the account's databases. */
export const HostingDatabaseParams = Type.Object({
  id: WebHostingParams.properties.id,
  database: Type.String({ pattern: '^[a-z][a-z0-9]{0,31}_[a-z0-9]{1,16}$', description: 'The database\'s full name (`<user>_<name>`).', examples: ['example_shop'] }),
});

export function hostingSiteView(s: HostingSite) {
  return {
    id: s.id, status: s.status, domain: s.domain, site_url: s.siteUrl, document_root: s.documentRoot, php_version: s.phpVersion,
    sftp: { host: s.sftp.host, port: s.sftp.port, username: s.sftp.username },
    disk_usage: { used_mb: s.usedMb, quota_mb: s.quotaMb, enforced: s.quotaEnforced },
    databases: s.databases.map((d) => ({ name: d.name, size_mb: d.sizeMb })),
    database_limit: s.maxDatabases,
  };
}

export const databaseCredentials = (name: string, password: string) => ({ name, username: name, host: 'localhost', password });
