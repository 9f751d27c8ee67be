// What `npm run token` does: find the running development identity server and fetch an access
// token for one of the development clients with the client-credentials grant.
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_IDENTITY_URL, DEVELOPMENT_CLIENTS, isDevelopmentClientName, realmUrls } from './development-realm';

export class TokenRequestError extends Error {}

/** Name of the file the launcher writes in its data folder: `{"url": "http://127.0.0.1:<port>"}`. */
export const IDENTITY_DISCOVERY_FILE = 'identity.json';

/**
 * `DESTINY_IDENTITY_URL` wins; then `DESTINY_IDENTITY_PORT` (with `DESTINY_HOST`), the variables
 * `npm start` was given; then the launcher's discovery file at
 * `${DESTINY_DATA_DIR:-./.destiny}/identity.json`; then the launcher's default port.
 */
export function resolveIdentityUrl(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const fromEnv = env.DESTINY_IDENTITY_URL?.trim();
  if (fromEnv) return fromEnv.replace(/\/+$/, '');
  const port = env.DESTINY_IDENTITY_PORT?.trim();
  if (port) {
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new TokenRequestError(`DESTINY_IDENTITY_PORT is not a port number: ${port}`);
    const host = env.DESTINY_HOST?.trim() || '127.0.0.1';
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  const file = path.resolve(cwd, env.DESTINY_DATA_DIR?.trim() || '.destiny', IDENTITY_DISCOVERY_FILE);
  if (fs.existsSync(file)) {
    let url: unknown;
    try {
      url = (JSON.parse(fs.readFileSync(file, 'utf8')) as { url?: unknown } | null)?.url;
    } catch (error) {
      throw new TokenRequestError(`cannot read the identity discovery file ${file}: ${(error as Error).message}`, { cause: error });
    }
    if (typeof url !== 'string' || !URL.canParse(url)) throw new TokenRequestError(`the identity discovery file ${file} has no valid "url"`);
    return url.replace(/\/+$/, '');
  }
  return DEFAULT_IDENTITY_URL;
}

/** An access token for the named development client (`admin`, `reader`) from the server at `identityUrl`. */
export async function requestDevelopmentToken(identityUrl: string, clientName: string): Promise<string> {
  if (!isDevelopmentClientName(clientName)) {
    throw new TokenRequestError(`unknown development client "${clientName}"; known clients: ${Object.keys(DEVELOPMENT_CLIENTS).join(', ')}`);
  }
  const client = DEVELOPMENT_CLIENTS[clientName];
  const { tokenUrl } = realmUrls(identityUrl);
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret, scope: 'openid' }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new TokenRequestError(
      `cannot reach the identity server at ${identityUrl} (${cause?.code ?? cause?.message ?? (error as Error).message}); start it with \`npm start\`, or set DESTINY_IDENTITY_URL`,
      { cause: error },
    );
  }
  const text = await response.text();
  let body: { access_token?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON: reported below with the status.
  }
  if (!response.ok || typeof body.access_token !== 'string') {
    const reason = typeof body.error === 'string' ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}` : text.slice(0, 200);
    throw new TokenRequestError(`the identity server at ${identityUrl} refused a token for client "${clientName}" (HTTP ${response.status}): ${reason}`);
  }
  return body.access_token;
}
