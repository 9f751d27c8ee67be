import { ConfigError } from '@destiny/platform';
import { AzureTokenVerifier } from './azure-token.verifier';
import { KeycloakTokenVerifier, type BearerVerifier } from './bearer-token.verifier';
import { MultiIssuerVerifier } from './multi-issuer.verifier';
import { SigningKeyStore } from './signing-key.store';

export const AUTH_PROVIDERS = ['keycloak', 'azure', 'both'] as const;
export type AuthProvider = (typeof AUTH_PROVIDERS)[number];

/** The gateway variables the bearer verifiers are built from (see `src/config.ts`). */
export interface AuthSettings {
  AUTH_PROVIDER: string;
  AUTH_ISSUER: string;
  AUTH_JWKS_URL: string;
  AUTH_AUDIENCE: string;
  AZURE_LOGIN_URL: string;
  AZURE_APPLICATION_ID: string;
}

/**
 * The bearer verifier `AUTH_PROVIDER` asks for (contract §4.2): Keycloak, Azure AD, or both routed by
 * issuer. Each provider has its own key store. The Azure variables are required only when Azure is
 * in use; a missing one stops the start with a ConfigError naming it, as the config loader does.
 */
export function createBearerVerifier(settings: AuthSettings): BearerVerifier {
  const provider = settings.AUTH_PROVIDER as AuthProvider;
  if (!AUTH_PROVIDERS.includes(provider)) throw new ConfigError([`AUTH_PROVIDER must be one of ${AUTH_PROVIDERS.join(', ')}, got ${JSON.stringify(settings.AUTH_PROVIDER)}`]);
  const keycloak = () => new KeycloakTokenVerifier({ issuer: settings.AUTH_ISSUER, audience: settings.AUTH_AUDIENCE, keys: new SigningKeyStore({ jwksUrl: settings.AUTH_JWKS_URL }) });
  if (provider === 'keycloak') return keycloak();
  const problems = (['AZURE_LOGIN_URL', 'AZURE_APPLICATION_ID'] as const)
    .filter((name) => settings[name] === '')
    .map((name) => `${name} is required when AUTH_PROVIDER is ${provider} (${name === 'AZURE_LOGIN_URL' ? 'the tenant login URL, e.g. https://login.microsoftonline.com/<tenant>' : "the repository's Azure application id, required in `aud`"})`);
  if (problems.length > 0) throw new ConfigError(problems);
  const azure = new AzureTokenVerifier({ loginUrl: settings.AZURE_LOGIN_URL, applicationId: settings.AZURE_APPLICATION_ID });
  return provider === 'azure' ? azure : new MultiIssuerVerifier([azure, keycloak()]);
}
