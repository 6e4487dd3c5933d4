// Names the schema and the processes share: made by a migration, read by the code that runs
// against it. They live here, not in the migration that first used them, so that no code imports
// a migration (a migration is history: it may be squashed, never edited).

/** The PostgreSQL schema of pg-boss's tables (migration 0002 installs it). */
export const JOB_SCHEMA = 'pgboss';

/** The NOTIFY channel that tells every API process to read an account's keys again (migration 0014). */
export const AUTH_CHANNEL = 'hostcloud_auth';

/** The NOTIFY channel on which an operation's id is announced when it finishes (migration 0040). */
export const OPERATION_FINISHED_CHANNEL = 'hostcloud_operation_finished';

/** The NOTIFY channel that wakes the webhook senders when deliveries are due (migration 0042). */
export const WEBHOOK_DUE_CHANNEL = 'hostcloud_webhook_due';

/** The NOTIFY channel that wakes the DNS pushers when the outbox has new rows (migration 0100). */
export const DNS_DUE_CHANNEL = 'hostcloud_dns_due';
