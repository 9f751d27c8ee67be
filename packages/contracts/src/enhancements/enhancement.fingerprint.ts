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
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) out += ',';
      // A hole stays empty (as map and join leave it).
      if (index in value) out += canonicalJson(value[index]);
    }
    return `${out}]`;
  }
  return canonicalObjectJson(value as Record<string, unknown>, []);
}

/**
 * The object's keys in `sort()` order (UTF-16 code units), sorted in place by insertion: objects
 * have few keys, and `Array.prototype.sort` allocates a work copy on every call, which showed as
 * the largest allocation site of import (a fingerprint sorts the keys of every nested object).
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index];
    let at = index - 1;
    while (at >= 0 && keys[at] > key) {
      keys[at + 1] = keys[at];
      at -= 1;
    }
    keys[at + 1] = key;
  }
  return keys;
}

// Built by appending to one string: fingerprints are computed for every imported enhancement.
function canonicalObjectJson(record: Record<string, unknown>, excluded: readonly string[]): string {
  let out = '{';
  for (const key of sortedKeys(record)) {
    const item = record[key];
    if (item === null || item === undefined || excluded.includes(key)) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** Canonical JSON of enhancement content with the type's excluded keys removed. */
export function canonicalContentJson(content: Record<string, unknown>): string {
  return canonicalObjectJson(content, FINGERPRINT_EXCLUDED_KEYS[String(content.enhancement_type)] ?? []);
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
