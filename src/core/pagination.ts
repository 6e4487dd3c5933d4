export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Paged<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
}

export function offsetOf(p: PageRequest): number {
  return (p.page - 1) * p.perPage;
}

export function totalPages(total: number, perPage: number): number {
  return Math.ceil(total / perPage);
}
