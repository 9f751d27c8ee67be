import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPOSITORY_CLIENT_ID, SIGNING_KEY_FILE, startIdentityProcess, type RunningIdentityProcess } from '@destiny/devstack/identity';
import { ensureDevstackBuilt } from './devstack.build';
import { verifyWithJwks } from './token.verification';

const running: RunningIdentityProcess[] = [];
const folders: string[] = [];

beforeAll(() => ensureDevstackBuilt());

afterEach(async () => {
  await Promise.all(running.splice(0).map((identity) => identity.stop()));
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

async function start(options: { port?: number; dataDir?: string }): Promise<RunningIdentityProcess> {
  const identity = await startIdentityProcess(options);
  running.push(identity);
  return identity;
}

async function adminToken(identity: RunningIdentityProcess): Promise<string> {
  const response = await fetch(identity.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'admin', client_secret: 'admin-dev-secret', scope: 'openid' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

test('when the server restarts on the same data folder, then a token issued before the restart still verifies against the new JWKS', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-identity-'));
  folders.push(dataDir);
  const first = await start({ dataDir });
  const token = await adminToken(first);
  const { port, issuer } = first;
  await first.stop();
  expect(fs.existsSync(path.join(dataDir, SIGNING_KEY_FILE))).toBe(true);

  // Same port, so the same issuer, as the launcher's fixed port gives in real use.
  const second = await start({ dataDir, port });
  expect(second.issuer).toBe(issuer);
  const result = await verifyWithJwks(token, { jwksUri: second.jwksUrl, issuer, audience: REPOSITORY_CLIENT_ID });
  expect(result).toMatchObject({ ok: true, payload: { azp: 'admin' } });
});

test('when the server restarts without a data folder, then earlier tokens no longer verify (keys lived in memory)', async () => {
  const first = await start({});
  const token = await adminToken(first);
  const { port, issuer } = first;
  await first.stop();

  const second = await start({ port });
  const result = await verifyWithJwks(token, { jwksUri: second.jwksUrl, issuer, audience: REPOSITORY_CLIENT_ID });
  expect(result.ok).toBe(false);
  const fresh = await verifyWithJwks(await adminToken(second), { jwksUri: second.jwksUrl, issuer, audience: REPOSITORY_CLIENT_ID });
  expect(fresh.ok).toBe(true);
});
