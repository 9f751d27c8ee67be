/** §16 `allowed_import_domains`: the host equals a listed domain or ends with `.` + it; empty list = off. */
export function storageHostAllowed(hostname: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const host = hostname.toLowerCase();
  return allowed.some((domain) => {
    const entry = domain.toLowerCase();
    return host === entry || host.endsWith(`.${entry}`);
  });
}
