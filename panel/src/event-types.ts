// The event types an endpoint can subscribe to, as the webhook form offers them: the server's own
// list (a leaf module of the core), never a copy.
export { EVENT_TYPE_NAMES as EVENT_TYPES } from '../../src/core/events/type-names.ts';
