// The domains routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as bulkRegisterDomains from './bulk-register-domains.ts';
import * as bulkRenewDomains from './bulk-renew-domains.ts';
import * as bulkTransferDomains from './bulk-transfer-domains.ts';
import * as checkDomain from './check-domain.ts';
import * as getDomain from './get-domain.ts';
import * as getDomainAuthCode from './get-domain-auth-code.ts';
import * as getDomainNameservers from './get-domain-nameservers.ts';
import * as listDomainPricing from './list-domain-pricing.ts';
import * as listDomains from './list-domains.ts';
import * as refreshDomainAuthCode from './refresh-domain-auth-code.ts';
import * as registerDomain from './register-domain.ts';
import * as renewDomain from './renew-domain.ts';
import * as transferDomain from './transfer-domain.ts';
import * as updateDomainLock from './update-domain-lock.ts';
import * as updateDomainNameservers from './update-domain-nameservers.ts';
import * as updateDomainWhoisPrivacy from './update-domain-whois-privacy.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listDomains, getDomain, checkDomain, listDomainPricing, registerDomain, transferDomain, renewDomain, bulkRegisterDomains, bulkTransferDomains, bulkRenewDomains, getDomainNameservers, updateDomainNameservers, updateDomainLock, updateDomainWhoisPrivacy, getDomainAuthCode, refreshDomainAuthCode,
];
