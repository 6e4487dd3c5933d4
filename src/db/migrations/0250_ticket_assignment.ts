// Support staff at work on tickets: a ticket's assignee (a staff member, or nobody), which member
// wrote each staff message, and canned replies (saved answers, for every department or one).
// The assignee is the staff's business: the ticket's event snapshot leaves it out, so no event,
// webhook or customer view can carry it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE tickets ADD COLUMN assignee_id text REFERENCES staff_members (id);
    -- "My tickets" and a member's queue by status; "nobody's" is served by tickets_status_newest.
    CREATE INDEX tickets_assignee_newest ON tickets (assignee_id, status, created_at DESC, id DESC)
      WHERE deleted_at IS NULL AND assignee_id IS NOT NULL;
    CREATE INDEX tickets_department_newest ON tickets (department_id, status, created_at DESC, id DESC)
      WHERE deleted_at IS NULL AND department_id IS NOT NULL;

    -- null for messages written before 0250 and for ADMIN_TOKEN, which is no member.
    ALTER TABLE ticket_messages ADD COLUMN staff_id text REFERENCES staff_members (id);

    CREATE TABLE canned_replies (
      id            int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      title         text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
      body          text NOT NULL CHECK (length(body) BETWEEN 1 AND 10000),
      -- null: offered in every department.
      department_id int REFERENCES departments (id),
      created_at    timestamptz NOT NULL DEFAULT now(),
      updated_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX canned_replies_department ON canned_replies (department_id, title);

    CREATE OR REPLACE FUNCTION hc_event_snapshot_ticket(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT (to_jsonb(t) - 'assignee_id') || jsonb_build_object('department_name', dp.name)
        FROM tickets t LEFT JOIN departments dp ON dp.id = t.department_id WHERE t.id = p_id
    $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION hc_event_snapshot_ticket(p_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
      SELECT to_jsonb(t) || jsonb_build_object('department_name', dp.name)
        FROM tickets t LEFT JOIN departments dp ON dp.id = t.department_id WHERE t.id = p_id
    $$;
    DROP TABLE canned_replies;
    ALTER TABLE ticket_messages DROP COLUMN staff_id;
    ALTER TABLE tickets DROP COLUMN assignee_id;
  `.execute(db);
}
