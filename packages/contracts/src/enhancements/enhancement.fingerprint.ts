import { createHash } from 'node:crypto';

// "Exact duplicate enhancement" equality (§6.5): same source, visibility, robot_version,
// derived_from and content fingerprint (canonical JSON, nulls dropped, keys sorted, with the
// per-type exclusions below).

/** Content keys that do not take part in the fingerprint, per enhancement type. */
export const FINGERPRINT_EXCLUDED_KEYS: Readonly<Record<string, readonly string[]>> = {
  bibliographic: ['updated_date'],
  raw: ['source_export_date'],
  // `file_url` is the stored copy's location (re-signed on every read); the checksum identifies the file.
  full_text: ['retrieved_at', 'file_url'],
};

/** Canonical JSON: object keys sorted, null-valued keys dropped (recursively), arrays in order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== null && item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** Canonical JSON of enhancement content with the type's excluded keys removed. */
export function canonicalContentJson(content: Record<string, unknown>): string {
  const excluded = FINGERPRINT_EXCLUDED_KEYS[String(content.enhancement_type)] ?? [];
  const kept = Object.fromEntries(Object.entries(content).filter(([key]) => !excluded.includes(key)));
  return canonicalJson(kept);
}

/** SHA-256 (hex) of the canonical content JSON. */
export function contentFingerprint(content: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalContentJson(content)).digest('hex');
}

export interface FingerprintableEnhancement {
  source: string;
  visibility: string;
  robot_version?: string | null;
  derived_from?: readonly string[] | null;
  content: Record<string, unknown>;
}

/** Fingerprint of a whole enhancement for exact-duplicate detection (id, reference, created_at ignored). */
export function enhancementFingerprint(enhancement: FingerprintableEnhancement): string {
  const identity = {
    source: enhancement.source,
    visibility: enhancement.visibility,
    robot_version: enhancement.robot_version ?? null,
    derived_from: enhancement.derived_from === undefined || enhancement.derived_from === null ? null : [...enhancement.derived_from].sort(),
    content: contentFingerprint(enhancement.content),
  };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}
