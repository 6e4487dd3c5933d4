// @hostcloud/sdk: a typed client of the Hostcloud API v2 for Node.js 20+ and browsers, with no
// runtime dependencies (fetch and WebCrypto).
export { Hostcloud } from './client.ts';
export { HostcloudError, type ErrorCode, type FieldError } from './errors.ts';
export { PageIterator, type Page } from './pages.ts';
export type { Answer, Call, CreateOptions, HostcloudOptions, ListMeta, Meta, Pagination, RequestOptions } from './transport.ts';
export type { WaitOptions } from './resources/operations.ts';
export type { FollowOptions } from './resources/events.ts';
export type { ServerAction } from './resources/servers.ts';
export type { VdcVmAction } from './resources/vdc.ts';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookHeaders } from './webhook.ts';
export type * from './types.ts';
export type * from './pending-types.ts';
export type { components, operations, paths } from './generated/v2.ts';
