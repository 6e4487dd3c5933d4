// The web-hosting routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as cancelWebHosting from './cancel-web-hosting.ts';
import * as createWebHosting from './create-web-hosting.ts';
import * as createWebHostingDatabase from './create-web-hosting-database.ts';
import * as deleteWebHostingDatabase from './delete-web-hosting-database.ts';
import * as getWebHosting from './get-web-hosting.ts';
import * as getWebHostingLogin from './get-web-hosting-login.ts';
import * as getWebHostingSite from './get-web-hosting-site.ts';
import * as listWebHosting from './list-web-hosting.ts';
import * as openWebHostingLoginLink from './open-web-hosting-login-link.ts';
import * as renewWebHosting from './renew-web-hosting.ts';
import * as resetWebHostingDatabasePassword from './reset-web-hosting-database-password.ts';
import * as resetWebHostingSftpPassword from './reset-web-hosting-sftp-password.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listWebHosting, getWebHosting, createWebHosting, renewWebHosting, cancelWebHosting, getWebHostingLogin, openWebHostingLoginLink,
  getWebHostingSite, resetWebHostingSftpPassword, createWebHostingDatabase, resetWebHostingDatabasePassword, deleteWebHostingDatabase,
];
