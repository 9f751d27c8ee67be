import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPOSITORY_CLIENT_ID, startIdentityProcess, type RunningIdentityProcess } from '@destiny/devstack/identity';
import { freePort } from '@destiny/devstack/testing';
import { ensureDevstackBuilt, TOKEN_CLI } from './devstack.build';
import { verifyWithJwks } from './token.verification';

let identity: RunningIdentityProcess;
let workDir: string;

beforeAll(async () => {
  ensureDevstackBuilt();
  identity = await startIdentityProcess();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-token-cli-'));
});

afterAll(async () => {
  await identity?.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

function runTokenCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const cleanEnv = { ...process.env, DESTINY_IDENTITY_URL: undefined, DESTINY_DATA_DIR: undefined, ...env };
    const child = spawn(process.execPath, [TOKEN_CLI, ...args], { cwd: workDir, env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function roles(token: string): Promise<unknown> {
  const result = await verifyWithJwks(token, { jwksUri: identity.jwksUrl, issuer: identity.issuer, audience: REPOSITORY_CLIENT_ID });
  if (!result.ok) throw new Error(result.error.message);
  return (result.payload.resource_access as Record<string, { roles: unknown }>)[REPOSITORY_CLIENT_ID].roles;
}

const JWT_LINE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/;

test('when run without arguments, then it prints only an admin token on stdout', async () => {
  const result = await runTokenCli([], { DESTINY_IDENTITY_URL: identity.url });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toMatch(JWT_LINE);
  expect(await roles(result.stdout.trim())).toContain('administrator');
});

test('when run with --client reader, then the token carries reference.reader only', async () => {
  const result = await runTokenCli(['--client', 'reader'], { DESTINY_IDENTITY_URL: identity.url });
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(JWT_LINE);
  expect(await roles(result.stdout.trim())).toEqual(['reference.reader']);
});

test('when no URL is set but the launcher left a discovery file in DESTINY_DATA_DIR, then the server is found through it', async () => {
  const dataDir = path.join(workDir, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'identity.json'), JSON.stringify({ url: identity.url }));
  const result = await runTokenCli([], { DESTINY_DATA_DIR: dataDir });
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(JWT_LINE);
});

test('when the identity server is not reachable, then nothing goes to stdout, stderr explains, and the exit code is not zero', async () => {
  const closedPort = await freePort();
  const result = await runTokenCli([], { DESTINY_IDENTITY_URL: `http://127.0.0.1:${closedPort}` });
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(`cannot reach the identity server at http://127.0.0.1:${closedPort}`);
});

test('when the client name is unknown, then it fails with the list of known clients', async () => {
  const result = await runTokenCli(['--client', 'mallory'], { DESTINY_IDENTITY_URL: identity.url });
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain('unknown development client "mallory"; known clients: admin, reader');
});
