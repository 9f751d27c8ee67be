import { createHash, randomBytes } from 'node:crypto';

// Contract §1.2: input is lenient about form (case, braces, `urn:uuid:`, 32 bare hex digits);
// output is always lowercase canonical 8-4-4-4-12.
const HEX32 = /^[0-9a-f]{32}$/;
const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function stripWrapping(input: string): string {
  let value = input.trim().toLowerCase();
  if (value.startsWith('urn:uuid:')) value = value.slice('urn:uuid:'.length);
  if (value.startsWith('{') && value.endsWith('}')) value = value.slice(1, -1);
  return value;
}

const DASH = 0x2d;

/** True for text already in canonical lowercase 8-4-4-4-12 form: every id we emit ourselves. */
function isCanonicalLowercase(value: string): boolean {
  if (value.length !== 36) return false;
  for (let index = 0; index < 36; index += 1) {
    const code = value.charCodeAt(index);
    if (index === 8 || index === 13 || index === 18 || index === 23) {
      if (code !== DASH) return false;
    } else if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) return false;
  }
  return true;
}

/** Any RFC 4122-shaped UUID (any version) in canonical lowercase form, or null when unparseable. */
export function parseUuidAnyVersion(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  // Ids in events and bodies are nearly always canonical already: skip the regexes and re-slicing.
  if (isCanonicalLowercase(input)) return input;
  const value = stripWrapping(input);
  let hex: string;
  if (DASHED.test(value)) hex = value.replace(/-/g, '');
  else if (HEX32.test(value)) hex = value;
  else return null;
  return dashed(hex);
}

/** 32 hex digits in the canonical 8-4-4-4-12 form. */
function dashed(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Version nibble of a canonical UUID. */
export function uuidVersion(canonical: string): number {
  return Number.parseInt(canonical.charAt(14), 16);
}

/** RFC 4122 variant: the top bits of byte 8 are `10`. */
function hasRfc4122Variant(canonical: string): boolean {
  return '89ab'.includes(canonical.charAt(19));
}

/** A DESTINY UUID (version 4 or 7, RFC 4122 variant) in canonical lowercase form, or null. */
export function canonicalUuid(input: unknown): string | null {
  const canonical = parseUuidAnyVersion(input);
  if (canonical === null) return null;
  const version = uuidVersion(canonical);
  if ((version !== 4 && version !== 7) || !hasRfc4122Variant(canonical)) return null;
  return canonical;
}

export function isDestinyUuid(input: unknown): boolean {
  return canonicalUuid(input) !== null;
}

/** The 16 raw big-endian bytes of a UUID (RFC 4122 byte order); throws on an unparseable UUID. */
export function uuidToBytes(input: string): Buffer {
  const canonical = parseUuidAnyVersion(input);
  if (canonical === null) throw new TypeError(`not a UUID: ${input}`);
  return Buffer.from(canonical.replace(/-/g, ''), 'hex');
}

// Random bits for 256 ids per system call: one call per id cost as much as the rest of the id.
const RANDOM_POOL_BYTES = 16 * 256;
let randomPool = Buffer.alloc(0);
let randomPoolOffset = 0;

/** 16 fresh random bytes, each handed out once. */
function randomSixteen(): Buffer {
  if (randomPoolOffset >= randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomPoolOffset = 0;
  }
  randomPoolOffset += 16;
  return randomPool.subarray(randomPoolOffset - 16, randomPoolOffset);
}

/** A new UUIDv7 (RFC 9562): 48-bit Unix milliseconds, version 7, 74 random bits, variant 10. */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomSixteen();
  const ms = Math.floor(now);
  const high = Math.floor(ms / 2 ** 32);
  bytes[0] = (high >>> 8) & 0xff;
  bytes[1] = high & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  return asVersion7(bytes);
}

/** The 16 bytes as a canonical UUID, with the version 7 and RFC 4122 variant bits set. */
function asVersion7(bytes: Buffer): string {
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return dashed(bytes.toString('hex'));
}

/**
 * A UUIDv7 derived from another UUIDv7 (`base`) and a `salt`: the base's timestamp, and bits from a
 * hash of both. The same inputs always give the same id, so work sent again (a retried chunk, a
 * resumed batch) writes under the ids of its first attempt.
 */
export function derivedUuidv7(base: string, salt: string): string {
  const bytes = createHash('sha256').update(`${base}:${salt}`).digest().subarray(0, 16);
  uuidToBytes(base).copy(bytes, 0, 0, 6);
  return asVersion7(bytes);
}
