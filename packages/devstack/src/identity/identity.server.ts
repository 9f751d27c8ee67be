// The embedded OpenID Connect identity provider: oidc-provider mounted at Keycloak's realm path,
// plus the development realm's login interaction (a plain HTML form).
import crypto from 'node:crypto';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import pino from 'pino';
import type { GrantModel, InteractionDetails, Provider } from 'oidc-provider';
import { AUTH_CLIENT_ID, DEVELOPMENT_USER, type IdentityEndpoints, identityEndpoints, REALM, REALM_PATH, realmUrls } from './development-realm';
import { errorPage, loginPage } from './login.pages';
import { buildProviderConfiguration, isLoopbackRedirect } from './provider.configuration';
import { loadOrCreateSigningKey } from './signing-key.store';
import type { RunningStandIn, StandInOptions } from '../stand-in';

/** A running identity server: its realm endpoints, development clients, and `stop()`. */
export type RunningIdentity = RunningStandIn & IdentityEndpoints;

const LOGIN_ACTIONS_PATH = `${REALM_PATH}/login-actions`;
const INVALID_CREDENTIALS = 'Invalid username or password.';

interface OidcProviderModule {
  Provider: typeof Provider;
  errors: { InvalidTarget: new (description?: string) => Error; SessionNotFound: new (description?: string) => Error };
}

// A real dynamic import: oidc-provider is ESM-only and this package compiles to CommonJS.
async function loadOidcProvider(): Promise<{ oidc: OidcProviderModule; createMemoryAdapter: (clockTolerance?: number) => unknown }> {
  const oidc = (await import('oidc-provider')) as unknown as OidcProviderModule;
  const { createMemoryAdapter } = await import('oidc-provider/lib/adapters/memory_adapter.js');
  return { oidc, createMemoryAdapter };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function publicHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startIdentity(options: StandInOptions): Promise<RunningIdentity> {
  const logger = pino({ name: 'devstack-identity' });
  const host = options.host ?? '127.0.0.1';
  const signingKey = loadOrCreateSigningKey(options.dataDir);
  const { oidc, createMemoryAdapter } = await loadOidcProvider();

  // The issuer names the port, so the socket is bound before the provider exists.
  let handle: http.RequestListener = (_request, response) => {
    response.statusCode = 503;
    response.end();
  };
  const server = http.createServer((request, response) => handle(request, response));
  await listen(server, options.port, host);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${publicHost(host)}:${port}`;

  const provider = new oidc.Provider(
    realmUrls(url).issuer,
    buildProviderConfiguration({
      signingKey,
      cookieKeys: [crypto.randomBytes(32).toString('base64url')],
      adapter: createMemoryAdapter(),
      invalidTarget: (description) => new oidc.errors.InvalidTarget(description),
      interactionPath: (uid) => `${LOGIN_ACTIONS_PATH}/${uid}`,
    }),
  );
  const registeredRedirectAllowed = provider.Client.prototype.redirectUriAllowed;
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(value: string): boolean {
    return registeredRedirectAllowed.call(this, value) || (this.clientId === AUTH_CLIENT_ID && isLoopbackRedirect(value));
  };
  provider.on('server_error', (_context, error) => logger.error({ err: error }, 'identity provider error'));

  const app = express();
  app.disable('x-powered-by');
  app.get(`${LOGIN_ACTIONS_PATH}/:uid`, (request, response) => void interaction(provider, oidc, request, response, logger));
  app.post(`${LOGIN_ACTIONS_PATH}/:uid`, express.urlencoded({ extended: false, limit: '16kb' }), (request, response) => void interaction(provider, oidc, request, response, logger));
  app.use(REALM_PATH, provider.callback());
  app.use((_request: Request, response: Response) => {
    response.status(404).json({ error: 'Unable to find matching target resource method' });
  });
  handle = app;

  return {
    ...identityEndpoints(url),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** One step of the browser login: show the form, check the posted credentials, or grant consent. */
async function interaction(provider: Provider, oidc: OidcProviderModule, request: Request, response: Response, logger: pino.Logger): Promise<void> {
  try {
    const details = await provider.interactionDetails(request, response);
    if (details.uid !== request.params.uid) {
      response.status(400).type('html').send(errorPage('Invalid request', 'This login page does not belong to your sign-in.'));
      return;
    }
    if (details.prompt.name === 'login') {
      const action = `${LOGIN_ACTIONS_PATH}/${details.uid}`;
      const clientId = String(details.params.client_id ?? '');
      if (request.method !== 'POST') {
        response.type('html').send(loginPage({ action, realm: REALM, clientId }));
        return;
      }
      const body = (request.body ?? {}) as Record<string, unknown>;
      const username = typeof body.username === 'string' ? body.username : '';
      const password = typeof body.password === 'string' ? body.password : '';
      if (username !== DEVELOPMENT_USER.username || password !== DEVELOPMENT_USER.password) {
        response.status(200).type('html').send(loginPage({ action, realm: REALM, clientId, username, error: INVALID_CREDENTIALS }));
        return;
      }
      await provider.interactionFinished(request, response, { login: { accountId: DEVELOPMENT_USER.id } }, { mergeWithLastSubmission: false });
      return;
    }
    // First-party development clients: consent is implied, as in the realm's Keycloak clients.
    const grantId = await grantRequested(provider, details);
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  } catch (error) {
    if (error instanceof oidc.errors.SessionNotFound) {
      response.status(400).type('html').send(errorPage('Your login attempt timed out', 'Start the sign-in again from your application.'));
      return;
    }
    logger.error({ err: error }, 'login interaction failed');
    if (!response.headersSent) response.status(500).type('html').send(errorPage('Unexpected error', 'The sign-in could not be completed.'));
  }
}

async function grantRequested(provider: Provider, details: InteractionDetails): Promise<string> {
  const accountId = details.session?.accountId ?? DEVELOPMENT_USER.id;
  const clientId = String(details.params.client_id);
  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant: GrantModel = existing ?? new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
  return grant.save();
}
