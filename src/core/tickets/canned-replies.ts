// Canned replies: answers support saves once and picks when replying (the console's reply box).
// Each is for one department or, without one, for every department. They are staff's own text:
// nothing reaches a customer until a member sends it as a reply.
import {
  type CannedReplyPatch, type CannedReplyRow, deleteCannedReply, findCannedReply, insertCannedReply, listCannedRepliesPage, updateCannedReply,
} from '../../db/queries/canned-replies.ts';
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError, type FieldError, notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { codePoints, staffTextProblem, stored } from './rules.ts';

export const CANNED_TITLE_MAX = 200;

export interface CannedReplyInput {
  title?: string;
  body?: string;
  /** null: every department. */
  department_id?: number | null;
}

const cannedNotFound = (id: number) => notFound(`Canned reply ${id}`);

function problems(input: CannedReplyInput): FieldError[] {
  const errors: FieldError[] = [];
  if (input.title !== undefined) {
    const title = stored(input.title);
    if (title === '') errors.push({ field: 'title', code: 'INVALID', message: 'must not be blank' });
    else if (codePoints(title) > CANNED_TITLE_MAX) errors.push({ field: 'title', code: 'INVALID', message: `must be at most ${CANNED_TITLE_MAX} characters` });
  }
  if (input.body !== undefined) {
    const p = staffTextProblem(input.body);
    if (p) errors.push({ field: 'body', code: 'INVALID', message: p });
  }
  return errors;
}

async function checked(db: Db, input: CannedReplyInput): Promise<CannedReplyPatch> {
  const errors = problems(input);
  if (input.department_id !== undefined && input.department_id !== null) {
    const department = await findCatalogRow(db, 'departments', input.department_id);
    if (!department?.active) errors.push({ field: 'department_id', code: 'INVALID', message: `no active department ${input.department_id}` });
  }
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return {
    ...(input.title !== undefined ? { title: stored(input.title) } : {}),
    ...(input.body !== undefined ? { body: stored(input.body) } : {}),
    ...(input.department_id !== undefined ? { department_id: input.department_id } : {}),
  };
}

export async function listCannedReplies(db: Db, departmentId: number | undefined, page: PageRequest): Promise<Paged<CannedReplyRow>> {
  const { rows, total } = await listCannedRepliesPage(db, { departmentId }, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getCannedReply(db: Db, id: number): Promise<CannedReplyRow> {
  const row = await findCannedReply(db, id);
  if (!row) throw cannedNotFound(id);
  return row;
}

export async function createCannedReply(db: Db, input: Required<Pick<CannedReplyInput, 'title' | 'body'>> & CannedReplyInput, now: Date): Promise<CannedReplyRow> {
  return inTransaction(db, async (trx) => {
    const v = await checked(trx, input);
    const id = await insertCannedReply(trx, { title: v.title!, body: v.body!, department_id: v.department_id ?? null, created_at: now, updated_at: now });
    return getCannedReply(trx, id);
  });
}

export async function changeCannedReply(db: Db, id: number, input: CannedReplyInput, now: Date): Promise<CannedReplyRow> {
  return inTransaction(db, async (trx) => {
    const v = await checked(trx, input);
    if (!(await updateCannedReply(trx, id, v, now))) throw cannedNotFound(id);
    return getCannedReply(trx, id);
  });
}

/** Gone for good: a reply already sent keeps its own copy of the text. */
export async function removeCannedReply(db: Db, id: number): Promise<CannedReplyRow> {
  return inTransaction(db, async (trx) => {
    const row = await getCannedReply(trx, id);
    await deleteCannedReply(trx, id);
    return row;
  });
}
