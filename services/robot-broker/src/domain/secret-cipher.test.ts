import crypto from 'node:crypto';
import { createSecretCipher, newClientSecret } from './secret-cipher';
import { pythonIsoformatUtc } from './python-isoformat';

describe('secret cipher', () => {
  const key = crypto.randomBytes(32).toString('hex');

  it('when a secret is sealed, then it opens with the same key only and never shows in the sealed form', () => {
    const secret = newClientSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const sealed = createSecretCipher(key).encrypt(secret);
    expect(JSON.stringify(sealed)).not.toContain(secret);
    expect(createSecretCipher(key).decrypt(sealed)).toBe(secret);
    expect(() => createSecretCipher(crypto.randomBytes(32).toString('hex')).decrypt(sealed)).toThrow();
  });

  it('when the key is not 64 hex characters, then the cipher refuses to start', () => {
    expect(() => createSecretCipher('abc')).toThrow(/64 hexadecimal/);
  });
});

describe('pythonIsoformatUtc', () => {
  it('when formatting a UTC instant, then it prints microseconds and +00:00 like Python', () => {
    expect(pythonIsoformatUtc(new Date('2026-01-31T12:10:00.123Z'))).toBe('2026-01-31T12:10:00.123000+00:00');
  });
});
