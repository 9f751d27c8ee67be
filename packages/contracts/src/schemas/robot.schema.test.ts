import { validate } from '../validation/validate';
import { ProvisionedRobot, Robot, RobotIn, RobotUpdateIn } from './robot.schema';

const ID = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const SECRET = '3f9c'.repeat(16);
const base = { name: 'abstract-bot', description: 'Adds abstracts', owner: 'Team A' };

describe('RobotIn', () => {
  it('when entitlements and base_url are omitted, then they default to [] and null', () => {
    const result = validate(RobotIn, { ...base }, 'body');
    expect(result.ok && result.value).toEqual({ ...base, entitlements: [], base_url: null });
  });

  it('when empty strings are given, then they are accepted (no length limits)', () => {
    expect(validate(RobotIn, { name: '', description: '', owner: '' }, 'body').ok).toBe(true);
  });

  it.each([['id'], ['client_secret'], ['robot_url']])('when the unknown key %s is sent, then it is extra_forbidden', (key) => {
    const result = validate(RobotIn, { ...base, [key]: 'x' }, 'body');
    expect(!result.ok && result.errors).toEqual([{ type: 'extra_forbidden', loc: ['body', key], msg: 'Extra inputs are not permitted', input: 'x' }]);
  });

  it('when an entitlement is unknown or upper case, then it is an enum error', () => {
    const result = validate(RobotIn, { ...base, entitlements: ['full_text', 'FULL_TEXT'] }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'enum', loc: ['body', 'entitlements', 1], msg: "Input should be 'full_text' or 'raw_enhancement_writer'" });
  });

  it('when base_url is not http(s), then it is rejected', () => {
    const result = validate(RobotIn, { ...base, base_url: 'file:///etc/passwd' }, 'body');
    expect(!result.ok && result.errors[0].type).toBe('url_scheme');
  });

  it('when a required field is missing, then it is reported', () => {
    const result = validate(RobotIn, { name: 'n', owner: 'o' }, 'body');
    expect(!result.ok && result.errors.map((issue) => issue.loc.join('.'))).toEqual(['body.description']);
  });
});

describe('RobotUpdateIn (D5)', () => {
  it('when the body carries an id, then it is accepted (the gateway compares it with the path)', () => {
    expect(validate(RobotUpdateIn, { ...base, id: ID }, 'body').ok).toBe(true);
  });

  it('when the body carries client_secret, then it is extra_forbidden', () => {
    const result = validate(RobotUpdateIn, { ...base, client_secret: SECRET }, 'body');
    expect(!result.ok && result.errors[0].type).toBe('extra_forbidden');
  });
});

describe('Robot and ProvisionedRobot responses', () => {
  it('when a robot response has base_url only when set, then both forms are valid', () => {
    expect(validate(Robot, { ...base, entitlements: [], id: ID }, 'body').ok).toBe(true);
    expect(validate(Robot, { ...base, entitlements: ['raw_enhancement_writer'], id: ID, base_url: 'https://robot.example.org/' }, 'body').ok).toBe(true);
  });

  it('when a robot response leaks client_secret, then it is rejected (the SDK forbids extras)', () => {
    expect(validate(Robot, { ...base, entitlements: [], id: ID, client_secret: SECRET }, 'body').ok).toBe(false);
  });

  it('when a provisioned robot has a 64-hex secret, then it is valid; other secrets are not', () => {
    expect(validate(ProvisionedRobot, { ...base, entitlements: [], id: ID, client_secret: SECRET }, 'body').ok).toBe(true);
    expect(validate(ProvisionedRobot, { ...base, entitlements: [], id: ID, client_secret: SECRET.toUpperCase() }, 'body').ok).toBe(false);
    expect(validate(ProvisionedRobot, { ...base, entitlements: [], id: ID, client_secret: SECRET, extra: 1 }, 'body').ok).toBe(false);
  });
});
