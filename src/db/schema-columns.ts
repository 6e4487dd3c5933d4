// Column types every table's rows share.
import type { ColumnType } from 'kysely';

/** Set by the database on insert (DEFAULT now()); never updated. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** Set on insert by default and by each update that says so. */
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
