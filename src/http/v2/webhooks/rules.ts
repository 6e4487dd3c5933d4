// The webhook settings the routes hand to the core: URL checks per WEBHOOK_ALLOW_HTTP and
// WEBHOOK_ALLOW_PRIVATE with the system's resolver, and WEBHOOK_MAX_PER_ACCOUNT.
import type { Config } from '../../../config.ts';
import type { WebhookRules } from '../../../core/webhooks/service.ts';
import { systemLookup } from '../../../providers/webhooks/lookup.ts';

export function webhookRules(config: Pick<Config, 'webhookAllowHttp' | 'webhookAllowPrivate' | 'webhookMaxPerAccount'>): WebhookRules {
  return {
    urls: { allowHttp: config.webhookAllowHttp, allowPrivate: config.webhookAllowPrivate, lookup: systemLookup },
    maxPerAccount: config.webhookMaxPerAccount,
  };
}
