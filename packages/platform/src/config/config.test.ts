import { ConfigError, defineConfig, loadConfig } from './config';

const spec = defineConfig({
  PORT: { kind: 'integer', default: 8080, min: 0, max: 65535, description: 'port' },
  MONGODB_URL: { kind: 'url', schemes: ['mongodb'], description: 'database' },
  OTEL_ENABLED: { kind: 'boolean', default: false, description: 'tracing' },
  OUTBOUND_ALLOWLIST: { kind: 'list', default: [], description: 'allow-list' },
  LOG_LEVEL: { kind: 'string', default: 'info', oneOf: ['info', 'debug'], description: 'level' },
});

describe('loadConfig', () => {
  it('when every value is valid, then typed values and defaults are returned', () => {
    const config = loadConfig(spec, { MONGODB_URL: 'mongodb://db:27017', OTEL_ENABLED: 'yes', OUTBOUND_ALLOWLIST: '127.0.0.1, localhost' });
    expect(config).toEqual({ PORT: 8080, MONGODB_URL: 'mongodb://db:27017', OTEL_ENABLED: true, OUTBOUND_ALLOWLIST: ['127.0.0.1', 'localhost'], LOG_LEVEL: 'info' });
  });

  it('when a required variable is missing, then the error names it', () => {
    expect(() => loadConfig(spec, {})).toThrow(/MONGODB_URL is required/);
  });

  it('when values are malformed, then every bad variable is named at once', () => {
    try {
      loadConfig(spec, { MONGODB_URL: 'http://x', PORT: '80a', OTEL_ENABLED: 'maybe', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT must be an integer/);
      expect(problems).toMatch(/MONGODB_URL must use mongodb/);
      expect(problems).toMatch(/OTEL_ENABLED must be true or false/);
      expect(problems).toMatch(/LOG_LEVEL must be one of info, debug/);
    }
  });

  it('when an integer is out of range, then the bound is named', () => {
    expect(() => loadConfig(spec, { MONGODB_URL: 'mongodb://x', PORT: '70000' })).toThrow(/PORT must be at most 65535/);
  });
});
