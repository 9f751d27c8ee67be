/** A write refused only because a unique key is taken (E11000), alone or for every write of a bulk write. */
export function isDuplicateKeyError(error: unknown): boolean {
  const record = error as { code?: number; writeErrors?: Array<{ code?: number }> } | undefined;
  if (record?.code === 11000) return true;
  return Array.isArray(record?.writeErrors) && record.writeErrors.length > 0 && record.writeErrors.every((item) => item.code === 11000);
}
