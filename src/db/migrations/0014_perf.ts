// Every API process caches keys (core/api-keys/key-cache.ts); these triggers tell all of them,
// through NOTIFY on AUTH_CHANNEL (db/names.ts), that an account's keys must be read again: a key revoked or
// its scopes, allowlist or sub-user changed, a sub-user's status or permissions changed or the
// sub-user deleted, the account's status changed. The payload is the account id. NOTIFY is sent
// at commit (and not at all on rollback), so no process can re-read the old row afterwards.
// last_used_at (written once a minute per key) and balances (every ledger row) are not listed.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION hostcloud_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('hostcloud_auth', COALESCE(to_jsonb(NEW), to_jsonb(OLD)) ->> TG_ARGV[0]);
      RETURN NULL;
    END $$;

    CREATE TRIGGER api_keys_auth_changed
      AFTER UPDATE OF revoked_at, scopes, ip_allowlist, sub_user_id, is_test, account_id, key_hash OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION hostcloud_auth_changed('account_id');
    CREATE TRIGGER sub_users_auth_changed
      AFTER UPDATE OF status, permissions, deleted_at OR DELETE ON sub_users
      FOR EACH ROW EXECUTE FUNCTION hostcloud_auth_changed('account_id');
    CREATE TRIGGER accounts_auth_changed
      AFTER UPDATE OF status OR DELETE ON accounts
      FOR EACH ROW EXECUTE FUNCTION hostcloud_auth_changed('id');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER accounts_auth_changed ON accounts;
    DROP TRIGGER sub_users_auth_changed ON sub_users;
    DROP TRIGGER api_keys_auth_changed ON api_keys;
    DROP FUNCTION hostcloud_auth_changed();
  `.execute(db);
}
