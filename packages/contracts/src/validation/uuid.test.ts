import { canonicalUuid, derivedUuidv7, isDestinyUuid, parseUuidAnyVersion, uuidToBytes, uuidv7, uuidVersion } from './uuid';

const V7 = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const V4 = '3f2b8a1c-9d4e-4f6a-8b7c-1d2e3f4a5b6c';

describe('canonicalUuid', () => {
  it.each([
    ['lowercase canonical', V7],
    ['upper case', V7.toUpperCase()],
    ['braces', `{${V7}}`],
    ['urn prefix', `urn:uuid:${V7}`],
    ['upper-case urn prefix', `URN:UUID:${V7.toUpperCase()}`],
    ['32 hex digits without dashes', V7.replace(/-/g, '')],
  ])('when given the %s form of a v7 uuid, then it returns the lowercase canonical form', (_form, input) => {
    expect(canonicalUuid(input)).toBe(V7);
  });

  it('when given a version 4 uuid, then it is accepted', () => {
    expect(canonicalUuid(V4)).toBe(V4);
  });

  it.each([
    ['version 1', '01970c2e-5b1a-1c3d-9e8f-0a1b2c3d4e5f'],
    ['version 3', '01970c2e-5b1a-3c3d-9e8f-0a1b2c3d4e5f'],
    ['version 5', '01970c2e-5b1a-5c3d-9e8f-0a1b2c3d4e5f'],
    ['version 6', '01970c2e-5b1a-6c3d-9e8f-0a1b2c3d4e5f'],
    ['version 8', '01970c2e-5b1a-8c3d-9e8f-0a1b2c3d4e5f'],
    ['nil', '00000000-0000-0000-0000-000000000000'],
    ['a non-RFC 4122 variant', '01970c2e-5b1a-7c3d-0e8f-0a1b2c3d4e5f'],
  ])('when given a %s uuid, then it is rejected', (_kind, input) => {
    expect(canonicalUuid(input)).toBeNull();
    expect(isDestinyUuid(input)).toBe(false);
  });

  it.each([['not-a-uuid'], [''], ['01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5'], [42], [null]])(
    'when given %p, then it is rejected',
    (input) => {
      expect(canonicalUuid(input)).toBeNull();
    },
  );

  it('when a v1 uuid is parsed without the version rule, then its version is reported', () => {
    const parsed = parseUuidAnyVersion('01970C2E-5B1A-1C3D-9E8F-0A1B2C3D4E5F');
    expect(parsed).toBe('01970c2e-5b1a-1c3d-9e8f-0a1b2c3d4e5f');
    expect(uuidVersion(parsed as string)).toBe(1);
  });
});

describe('parseUuidAnyVersion', () => {
  // The regular-expression parse the canonical fast path must agree with.
  const byExpressions = (input: string): string | null => {
    let value = input.trim().toLowerCase();
    if (value.startsWith('urn:uuid:')) value = value.slice('urn:uuid:'.length);
    if (value.startsWith('{') && value.endsWith('}')) value = value.slice(1, -1);
    const hex = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value) ? value.replace(/-/g, '') : /^[0-9a-f]{32}$/.test(value) ? value : null;
    return hex === null ? null : `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };

  it('when given canonical, near-canonical and mangled texts, then it answers as the regular-expression parse does', () => {
    const alphabet = '0123456789abcdefABCDEFg-{} :';
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const inputs = [V7, V4, ` ${V7}`, `${V7} `, V7.toUpperCase(), `{${V7}}`, V7.replace(/-/g, ''), `${V7.slice(0, 8)}x${V7.slice(9)}`, `${V7.slice(0, 35)}g`, `${V7}0`];
    for (let n = 0; n < 2000; n += 1) {
      const characters = [...V7];
      characters[Math.floor(random() * 36)] = alphabet[Math.floor(random() * alphabet.length)];
      inputs.push(characters.join(''));
    }
    for (const input of inputs) expect(parseUuidAnyVersion(input)).toBe(byExpressions(input));
  });
});

describe('uuidToBytes', () => {
  it('when converting a uuid, then it gives the 16 big-endian bytes', () => {
    expect(uuidToBytes(V7).toString('hex')).toBe('01970c2e5b1a7c3d9e8f0a1b2c3d4e5f');
  });

  it('when converting text that is not a uuid, then it throws', () => {
    expect(() => uuidToBytes('nope')).toThrow('not a UUID');
  });
});

describe('uuidv7', () => {
  it('when generated, then it is a canonical version 7 uuid carrying the millisecond timestamp', () => {
    const now = Date.UTC(2026, 0, 31, 12, 0, 0, 123);
    const id = uuidv7(now);
    expect(canonicalUuid(id)).toBe(id);
    expect(uuidVersion(id)).toBe(7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('when generated twice in the same millisecond, then the ids differ', () => {
    expect(uuidv7(1000)).not.toBe(uuidv7(1000));
  });

  it('when generated at any 48-bit time, then its first 48 bits are that time (as a BigInt shift writes them)', () => {
    for (const now of [0, 1, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 12345, Date.UTC(2026, 10, 21, 23, 30), 2 ** 48 - 1]) {
      const expected = Array.from({ length: 6 }, (_, i) => Number((BigInt(now) >> BigInt(8 * (5 - i))) & 0xffn).toString(16).padStart(2, '0')).join('');
      expect(uuidv7(now).replace(/-/g, '').slice(0, 12)).toBe(expected);
    }
  });

  it('when many are generated, then none repeats and each keeps its version and variant', () => {
    const ids = Array.from({ length: 2000 }, () => uuidv7(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(isDestinyUuid(id)).toBe(true);
  });

  it('when generated at increasing times, then the ids sort in time order', () => {
    const ids = [1, 2, 3].map((offset) => uuidv7(1_700_000_000_000 + offset));
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('derivedUuidv7', () => {
  const base = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

  it('when derived twice from the same base and salt, then it is the same version 7 uuid with the base\'s timestamp', () => {
    const id = derivedUuidv7(base, 'exact-duplicate');
    expect(derivedUuidv7(base, 'exact-duplicate')).toBe(id);
    expect(id).toMatch(/^0193a1b2-c3d4-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isDestinyUuid(id)).toBe(true);
  });

  it('when the salt or the base differs, then the ids differ', () => {
    expect(new Set([derivedUuidv7(base, 'a'), derivedUuidv7(base, 'b'), derivedUuidv7('0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c', 'a')]).size).toBe(3);
  });
});
