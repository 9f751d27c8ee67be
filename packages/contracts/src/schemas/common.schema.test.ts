import { Type } from '@sinclair/typebox';
import { validate } from '../validation/validate';
import { Nullable, NullableStringEnum, Uuid, withDefault, StringEnum } from './common.schema';

const V7 = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';

describe('Uuid', () => {
  it('when a body uuid is given in a lenient form, then the validated value is lowercase canonical', () => {
    const result = validate(Type.Object({ id: Uuid(), ids: Type.Array(Uuid()) }), { id: `{${V7.toUpperCase()}}`, ids: [`urn:uuid:${V7}`, V7.replace(/-/g, '')] }, 'body');
    expect(result.ok && result.value).toEqual({ id: V7, ids: [V7, V7] });
  });

  it('when a path uuid is upper case, then it is canonicalised too', () => {
    const result = validate(Type.Object({ robot_id: Uuid() }), { robot_id: V7.toUpperCase() }, 'path');
    expect(result.ok && result.value.robot_id).toBe(V7);
  });

  it('when the whole value is a uuid, then it is canonicalised as well', () => {
    expect(validate(Uuid(), V7.toUpperCase(), 'body')).toEqual({ ok: true, value: V7 });
  });

  it('when a uuid has the wrong version, then the issue shows the input as sent', () => {
    const input = '01970C2E-5B1A-1C3D-9E8F-0A1B2C3D4E5F';
    const result = validate(Type.Object({ id: Uuid() }), { id: input }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'uuid_version', input });
  });
});

describe('Nullable and enums', () => {
  it('when a nullable enum is null or a listed value, then it passes; otherwise the enum issue omits null', () => {
    const schema = Type.Object({ v: NullableStringEnum(['a', 'b'] as const) });
    expect(validate(schema, { v: null }, 'body').ok).toBe(true);
    expect(validate(schema, { v: 'a' }, 'body').ok).toBe(true);
    const result = validate(schema, { v: 'c' }, 'body');
    expect(!result.ok && result.errors[0].msg).toBe("Input should be 'a' or 'b'");
  });

  it('when Nullable wraps a schema without a single type, then anyOf with null is used', () => {
    const schema = Nullable(Type.Union([Type.String(), Type.Integer()]));
    expect(validate(schema, null, 'body').ok).toBe(true);
    expect(validate(schema, 3, 'body').ok).toBe(true);
    // pydantic's lax union reads a boolean as the integer it stands for; an object is nothing it can read.
    expect(validate(schema, true, 'body')).toEqual({ ok: true, value: 1 });
    expect(validate(schema, {}, 'body').ok).toBe(false);
  });

  it('when withDefault is used on an enum, then the default is filled in', () => {
    const result = validate(Type.Object({ v: Type.Optional(withDefault(StringEnum(['x', 'y'] as const), 'y')) }), {}, 'body');
    expect(result.ok && result.value).toEqual({ v: 'y' });
  });
});
