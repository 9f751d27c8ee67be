import { JwksClient } from 'jwks-rsa';

/** The identity provider's key set could not be fetched (contract §4.3). */
export class SigningKeysUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`signing keys could not be fetched: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'SigningKeysUnavailableError';
  }
}

/**
 * GETs the key set within `timeoutMs` from start to last byte. jwks-rsa's own request only times out
 * a socket that falls silent, so a provider trickling bytes would hold every waiting request for
 * ever. Redirects are not followed, as jwks-rsa does not follow them either.
 */
async function fetchKeySet(uri: string, timeoutMs: number): Promise<{ keys: unknown }> {
  const response = await fetch(uri, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual', headers: { accept: 'application/json' } });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`the JWKS endpoint answered HTTP ${response.status}`);
  }
  return (await response.json()) as { keys: unknown };
}

export interface SigningKey {
  /** PEM public key. */
  pem: string;
  /** True when the key set was fetched for this lookup, so refreshing again would not help. */
  fresh: boolean;
}

export interface SigningKeyStoreOptions {
  jwksUrl: string;
  /** How long a fetched key set is trusted (contract §4.2: 24 h). */
  maxAgeMs?: number;
  /** Forced refreshes (unknown kid, failed signature) happen at most this often. */
  minRefreshIntervalMs?: number;
  /** Bound on one whole key-set fetch, connection to last byte. */
  timeoutMs?: number;
  now?: () => number;
}

export const JWKS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The JWKS, cached for a day. A token naming a kid the cached set lacks (a rotated key) or failing
 * its signature against a cached key triggers one refresh; refreshes are rate-limited so a flood of
 * forged tokens cannot turn into a flood of requests to the identity provider. A failed fetch counts
 * against the same limit, and while the provider is failing a day-old key set stays in use rather
 * than locking every caller out.
 */
export class SigningKeyStore {
  private readonly client: JwksClient;
  private readonly maxAgeMs: number;
  private readonly minRefreshIntervalMs: number;
  private readonly now: () => number;
  private keys = new Map<string, string>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  /** When the last fetch, successful or not, was started. */
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private lastFailure: SigningKeysUnavailableError | undefined;
  private inflight: Promise<void> | undefined;

  constructor(options: SigningKeyStoreOptions) {
    this.client = new JwksClient({ jwksUri: options.jwksUrl, cache: false, rateLimit: false, fetcher: (uri) => fetchKeySet(uri, options.timeoutMs ?? 5000) });
    this.maxAgeMs = options.maxAgeMs ?? JWKS_MAX_AGE_MS;
    this.minRefreshIntervalMs = options.minRefreshIntervalMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The key for `kid` (a token without kid uses the only key), or undefined if the provider has none. */
  async keyFor(kid: string | undefined): Promise<SigningKey | undefined> {
    let fresh = false;
    if (this.now() - this.fetchedAt >= this.maxAgeMs) {
      if (this.mayRefresh()) {
        try {
          await this.fetch();
          fresh = true;
        } catch (error) {
          if (this.keys.size === 0) throw error;
        }
      } else if (this.keys.size === 0) {
        throw this.lastFailure ?? new SigningKeysUnavailableError(new Error('no key set fetched yet'));
      }
    }
    let pem = this.lookup(kid);
    if (pem === undefined && !fresh) {
      if (this.mayRefresh()) {
        await this.fetch();
        fresh = true;
        pem = this.lookup(kid);
      } else if (this.lastFailure !== undefined) {
        // The provider is failing and may well hold the key: say the keys are out of reach.
        throw this.lastFailure;
      }
    }
    return pem === undefined ? undefined : { pem, fresh };
  }

  /** Re-fetches the key set unless that happened very recently; true when it was re-fetched. */
  async refresh(): Promise<boolean> {
    if (!this.mayRefresh()) return false;
    await this.fetch();
    return true;
  }

  /** A fetch under way may always be joined: the rate limit is on starting fetches, not on waiting for one. */
  private mayRefresh(): boolean {
    return this.inflight !== undefined || this.now() - Math.max(this.fetchedAt, this.attemptedAt) >= this.minRefreshIntervalMs;
  }

  private lookup(kid: string | undefined): string | undefined {
    if (kid !== undefined) return this.keys.get(kid);
    return this.keys.size === 1 ? [...this.keys.values()][0] : undefined;
  }

  private fetch(): Promise<void> {
    if (this.inflight) return this.inflight;
    this.attemptedAt = this.now();
    this.inflight = this.client
      .getSigningKeys()
      .then(
        (signingKeys) => {
          this.keys = new Map(signingKeys.map((key) => [key.kid ?? '', key.getPublicKey()]));
          this.fetchedAt = this.now();
          this.lastFailure = undefined;
        },
        (error: unknown) => {
          this.lastFailure = new SigningKeysUnavailableError(error);
          throw this.lastFailure;
        },
      )
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}
