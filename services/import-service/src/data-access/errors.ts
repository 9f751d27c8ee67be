export function isDuplicateKeyError(error: unknown): boolean {
  const record = error as { code?: number; writeErrors?: Array<{ code?: number }> };
  if (record?.code === 11000) return true;
  return Array.isArray(record?.writeErrors) && record.writeErrors.length > 0 && record.writeErrors.every((item) => item.code === 11000);
}
