import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateSigningKey, SIGNING_KEY_FILE } from './signing-key.store';

const folders: string[] = [];
function temporaryFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-signing-key-'));
  folders.push(folder);
  return folder;
}

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

test('when a data folder is given, then the key is written there once and the same key comes back on the next load', () => {
  const folder = path.join(temporaryFolder(), 'identity');
  const first = loadOrCreateSigningKey(folder);
  const file = path.join(folder, SIGNING_KEY_FILE);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(loadOrCreateSigningKey(folder)).toEqual(first);
  expect(fs.readdirSync(folder)).toEqual([SIGNING_KEY_FILE]);
});

test('when a key is generated, then it is an RS256 private JWK whose kid is its RFC 7638 thumbprint and which signs', () => {
  const key = loadOrCreateSigningKey();
  expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
  const thumbprint = crypto.createHash('sha256').update(JSON.stringify({ e: key.e, kty: 'RSA', n: key.n })).digest('base64url');
  expect(key.kid).toBe(thumbprint);
  const privateKey = crypto.createPrivateKey({ key: { ...key }, format: 'jwk' });
  const signature = crypto.sign('sha256', Buffer.from('payload'), privateKey);
  expect(crypto.verify('sha256', Buffer.from('payload'), crypto.createPublicKey(privateKey), signature)).toBe(true);
});

test('when no data folder is given, then every load makes a new in-memory key', () => {
  expect(loadOrCreateSigningKey().kid).not.toBe(loadOrCreateSigningKey().kid);
});

test('when the key file is damaged, then loading fails with a message naming the file instead of replacing the key', () => {
  const folder = temporaryFolder();
  const file = path.join(folder, SIGNING_KEY_FILE);
  fs.writeFileSync(file, '{"keys": [');
  expect(() => loadOrCreateSigningKey(folder)).toThrow(`identity signing key file ${file} is not readable JSON`);
  fs.writeFileSync(file, JSON.stringify({ keys: [{ kty: 'EC' }] }));
  expect(() => loadOrCreateSigningKey(folder)).toThrow('holds no RSA private key');
  expect(fs.readFileSync(file, 'utf8')).toBe(JSON.stringify({ keys: [{ kty: 'EC' }] }));
});
