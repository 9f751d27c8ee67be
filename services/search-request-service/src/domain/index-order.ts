// Which state of a reference the index may hold, as live indexing and rebuilds both decide it.
// Versions are dedup-service's per-reference versions; the index itself refuses an older or equal
// external version, and this rule covers what the index may have forgotten (delete tombstones).

/** Version a rebuild writes a view at when dedup-service sent none: older than any event. */
export const UNVERSIONED = 0;

/** The version to index a streamed view at: its own, or UNVERSIONED when it came without one. */
export function streamedViewVersion(version: number | undefined): number {
  return typeof version === 'number' && Number.isInteger(version) && version > 0 ? version : UNVERSIONED;
}

/**
 * Whether a state at `version` is older than the reference's recorded removal (`removedAt`, the
 * version of the event that made it a duplicate) and so must not bring it back.
 */
export function isOlderThanRemoval(version: number, removedAt: number | undefined): boolean {
  return removedAt !== undefined && removedAt >= version;
}
