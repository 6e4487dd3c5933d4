import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { StaffPrincipal } from '../../core/staff/principal.ts';

/** The caller of an admin route (the auth hook guarantees one). */
export function principalOf(request: FastifyRequest): StaffPrincipal {
  if (!request.staff) throw new ApiError('AUTH_REQUIRED', 'Authentication is required');
  return request.staff;
}
