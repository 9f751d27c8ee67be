/** Python's `datetime.isoformat()` of an aware UTC datetime (§1.3): microseconds and `+00:00`. */
export function pythonIsoformatUtc(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000+00:00`;
}
