// Sign-up no longer takes a password: the mailed link is where it is chosen, as with an invitation.
// A sign-up made before kept the password whoever typed it, waiting for the mailbox's owner to
// confirm — so someone who signed up first with another person's email would hold the account once
// that person confirmed. Here every password set by a sign-up never confirmed is forgotten and its
// confirmation links retired; the owner signs up again, or uses "Forgot password", and the mailed
// link sets a password of the owner's choosing. (Only a sign-up stored a password without proving
// the email: invitations and resets prove it when the password is set.)
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE panel_links SET used_at = now() WHERE kind = 'email_verification' AND used_at IS NULL`.execute(db);
  await sql`
    UPDATE panel_users SET password_hash = NULL, updated_at = now()
    WHERE email_verified_at IS NULL AND password_hash IS NOT NULL AND sub_user_id IS NULL
  `.execute(db);
}

export async function down(): Promise<void> {
  // The forgotten passwords are not kept anywhere: nothing to restore.
}
