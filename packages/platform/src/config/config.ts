// Configuration comes only from environment variables, declared per service and validated once
// at start. A missing or malformed value stops the process with a message naming the variable.

type Kind = 'string' | 'integer' | 'boolean' | 'url' | 'list';

interface VariableBase<K extends Kind> {
  kind: K;
  description: string;
  /** Used when the variable is unset or empty. Omit to make the variable required. */
  default?: KindValue<K>;
  /** For integers: inclusive bounds. */
  min?: number;
  max?: number;
  /** For strings: the accepted values. */
  oneOf?: readonly string[];
  /** Allowed URL schemes for `url` (default http, https). */
  schemes?: readonly string[];
  /** Secrets are never echoed in error messages or the configuration table. */
  secret?: boolean;
}

type KindValue<K extends Kind> = K extends 'integer' ? number : K extends 'boolean' ? boolean : K extends 'list' ? string[] : string;

export type VariableSpec = { [K in Kind]: VariableBase<K> }[Kind];

export type ConfigSpec = Record<string, VariableSpec>;

export type ConfigValues<S extends ConfigSpec> = { [Name in keyof S]: KindValue<S[Name]['kind']> };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Declares a service's variables; the identity function keeps literal types for `loadConfig`. */
export function defineConfig<S extends ConfigSpec>(spec: S): S {
  return spec;
}

function parseValue(name: string, spec: VariableSpec, raw: string): { value?: unknown; problem?: string } {
  const shown = spec.secret ? '<secret>' : JSON.stringify(raw);
  switch (spec.kind) {
    case 'integer': {
      if (!/^-?\d+$/.test(raw)) return { problem: `${name} must be an integer, got ${shown}` };
      const value = Number(raw);
      if (spec.min !== undefined && value < spec.min) return { problem: `${name} must be at least ${spec.min}, got ${value}` };
      if (spec.max !== undefined && value > spec.max) return { problem: `${name} must be at most ${spec.max}, got ${value}` };
      return { value };
    }
    case 'boolean': {
      const lowered = raw.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(lowered)) return { value: true };
      if (['false', '0', 'no', 'off'].includes(lowered)) return { value: false };
      return { problem: `${name} must be true or false, got ${shown}` };
    }
    case 'url': {
      const schemes = spec.schemes ?? ['http', 'https'];
      try {
        const url = new URL(raw);
        if (!schemes.includes(url.protocol.replace(/:$/, ''))) return { problem: `${name} must use ${schemes.join(' or ')}, got ${shown}` };
        return { value: raw };
      } catch {
        return { problem: `${name} must be a URL, got ${shown}` };
      }
    }
    case 'list':
      return { value: raw.split(',').map((item) => item.trim()).filter(Boolean) };
    case 'string':
      if (spec.oneOf && !spec.oneOf.includes(raw)) return { problem: `${name} must be one of ${spec.oneOf.join(', ')}, got ${shown}` };
      return { value: raw };
  }
}

/** Reads and validates every declared variable, reporting all problems at once. */
export function loadConfig<S extends ConfigSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): ConfigValues<S> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(spec)) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (variable.default === undefined) problems.push(`${name} is required (${variable.description})`);
      else values[name] = variable.default;
      continue;
    }
    const parsed = parseValue(name, variable, raw.trim());
    if (parsed.problem) problems.push(parsed.problem);
    else values[name] = parsed.value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as ConfigValues<S>;
}

/** Rows for the README's configuration table. */
export function describeConfig(spec: ConfigSpec): Array<{ name: string; kind: Kind; default: string; description: string }> {
  return Object.entries(spec).map(([name, variable]) => ({
    name,
    kind: variable.kind,
    default: variable.default === undefined ? '(required)' : variable.secret ? '(development value)' : Array.isArray(variable.default) ? variable.default.join(',') : String(variable.default),
    description: variable.description,
  }));
}
