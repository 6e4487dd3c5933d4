/** RFC 3339 UTC without fractions, the one timestamp form the API answers: YYYY-MM-DDTHH:MM:SSZ. */
export function timestamp(d: Date | null | undefined): string | null {
  if (!d) return null;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function ts(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
