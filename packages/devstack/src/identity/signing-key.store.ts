// The realm's RS256 signing key. With a data folder it is generated once and kept there, so
// tokens issued before a restart still verify against the JWKS after it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface RsaSigningJwk {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
  d: string;
  p: string;
  q: string;
  dp: string;
  dq: string;
  qi: string;
}

export const SIGNING_KEY_FILE = 'signing-keys.jwks.json';

/**
 * A new RSA private key as PEM. Node 20 can deadlock when a key object returned by
 * `generateKeyPairSync` is exported or inspected while a garbage collection frees the generating
 * job (both lock the key's one mutex on the same thread); a key object created from the PEM has a
 * mutex of its own.
 */
export function generatePrivateKeyPem(): string {
  return crypto.generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }).privateKey;
}

/** RFC 7638 thumbprint, so the same key always gets the same `kid`. */
function thumbprint(jwk: { e: string; n: string }): string {
  const canonical = JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n });
  return crypto.createHash('sha256').update(canonical).digest('base64url');
}

export function generateSigningKey(): RsaSigningJwk {
  const jwk = crypto.createPrivateKey(generatePrivateKeyPem()).export({ format: 'jwk' }) as Record<string, string>;
  const { n, e, d, p, q, dp, dq, qi } = jwk;
  return { kty: 'RSA', kid: thumbprint({ n, e }), alg: 'RS256', use: 'sig', n, e, d, p, q, dp, dq, qi };
}

function parseKeyFile(file: string): RsaSigningJwk {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`identity signing key file ${file} is not readable JSON (${(error as Error).message}); remove it to generate a new key`, { cause: error });
  }
  const key = (parsed as { keys?: unknown[] } | null)?.keys?.[0] as Partial<RsaSigningJwk> | undefined;
  const fields = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] as const;
  if (!key || key.kty !== 'RSA' || fields.some((field) => typeof key[field] !== 'string')) {
    throw new Error(`identity signing key file ${file} holds no RSA private key; remove it to generate a new key`);
  }
  try {
    crypto.createPrivateKey({ key: key as crypto.JsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new Error(`identity signing key file ${file} holds an unusable RSA key (${(error as Error).message}); remove it to generate a new key`, { cause: error });
  }
  const { n, e, d, p, q, dp, dq, qi } = key as RsaSigningJwk;
  return { kty: 'RSA', kid: key.kid ?? thumbprint({ n, e }), alg: 'RS256', use: 'sig', n, e, d, p, q, dp, dq, qi };
}

/**
 * The signing key kept in `dataDir` (created on first use), or a fresh in-memory key without one.
 * Creation links a fully written temporary file into place, so two processes starting on the same
 * folder at once end up sharing whichever key landed first.
 */
export function loadOrCreateSigningKey(dataDir?: string): RsaSigningJwk {
  if (!dataDir) return generateSigningKey();
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  if (fs.existsSync(file)) return parseKeyFile(file);
  fs.mkdirSync(dataDir, { recursive: true });
  const key = generateSigningKey();
  const temporary = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify({ keys: [key] }, null, 2)}\n`, { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return parseKeyFile(file);
}
