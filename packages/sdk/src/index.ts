// @hostcloud/sdk: a typed client of the Hostcloud API v2 for Node.js 20+ and browsers, with no
// runtime dependencies (fetch and WebCrypto).
export { Hostcloud } from './client.js';
export { AmbiguousNameError, HostcloudError, type ErrorCode, type FieldError } from './errors.js';
export { PageIterator, type Page } from './pages.js';
export type { Answer, Call, CreateOptions, HostcloudOptions, ListMeta, Meta, Pagination, RequestOptions } from './transport.js';
export type { WaitOptions } from './resources/operations.js';
export type { FollowOptions } from './resources/events.js';
export type { ServerAction } from './resources/servers.js';
export type { VdcVmAction } from './resources/vdc.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookHeaders } from './webhook.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/v2.js';
