import fs from 'node:fs';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { requestDevelopmentToken, resolveIdentityUrl, TokenRequestError } from './token.client';

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-token-client-'));
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('resolveIdentityUrl', () => {
  test('when nothing is configured, then the launcher default port is used', () => {
    expect(resolveIdentityUrl({}, folder)).toBe('http://127.0.0.1:8180');
  });

  test('when ./.destiny/identity.json exists, then its url is used', () => {
    fs.mkdirSync(path.join(folder, '.destiny'));
    fs.writeFileSync(path.join(folder, '.destiny', 'identity.json'), JSON.stringify({ url: 'http://127.0.0.1:4321/' }));
    expect(resolveIdentityUrl({}, folder)).toBe('http://127.0.0.1:4321');
  });

  test('when DESTINY_DATA_DIR is set, then the discovery file is read from there', () => {
    fs.writeFileSync(path.join(folder, 'identity.json'), JSON.stringify({ url: 'http://127.0.0.1:5555' }));
    expect(resolveIdentityUrl({ DESTINY_DATA_DIR: folder }, '/')).toBe('http://127.0.0.1:5555');
  });

  test('when DESTINY_IDENTITY_URL is set, then it wins over the discovery file', () => {
    fs.writeFileSync(path.join(folder, 'identity.json'), JSON.stringify({ url: 'http://127.0.0.1:5555' }));
    expect(resolveIdentityUrl({ DESTINY_IDENTITY_URL: 'http://127.0.0.1:7777', DESTINY_DATA_DIR: folder }, '/')).toBe('http://127.0.0.1:7777');
  });

  test('when DESTINY_IDENTITY_PORT is set, as npm start was given it, then that port wins over a discovery file', () => {
    fs.writeFileSync(path.join(folder, 'identity.json'), JSON.stringify({ url: 'http://127.0.0.1:5555' }));
    expect(resolveIdentityUrl({ DESTINY_IDENTITY_PORT: '18180', DESTINY_DATA_DIR: folder }, '/')).toBe('http://127.0.0.1:18180');
    expect(resolveIdentityUrl({ DESTINY_IDENTITY_PORT: '18180', DESTINY_HOST: '::1' }, folder)).toBe('http://[::1]:18180');
    expect(resolveIdentityUrl({ DESTINY_IDENTITY_PORT: '18180', DESTINY_IDENTITY_URL: 'http://127.0.0.1:7777' }, folder)).toBe('http://127.0.0.1:7777');
    expect(() => resolveIdentityUrl({ DESTINY_IDENTITY_PORT: 'x' }, folder)).toThrow('DESTINY_IDENTITY_PORT is not a port number: x');
  });

  test('when the discovery file is damaged, then the error names it', () => {
    fs.writeFileSync(path.join(folder, 'identity.json'), '{"url": 42}');
    expect(() => resolveIdentityUrl({ DESTINY_DATA_DIR: folder }, '/')).toThrow(TokenRequestError);
    expect(() => resolveIdentityUrl({ DESTINY_DATA_DIR: folder }, '/')).toThrow(`${path.join(folder, 'identity.json')} has no valid "url"`);
  });
});

describe('requestDevelopmentToken', () => {
  test('when the client name is unknown, then it fails before any request', async () => {
    await expect(requestDevelopmentToken('http://127.0.0.1:1', 'root')).rejects.toThrow('unknown development client "root"; known clients: admin, reader');
  });

  test('when the server answers with something other than a token, then the error carries the status and the body', async () => {
    const server = http.createServer((_request, response) => {
      response.statusCode = 502;
      response.end('Bad Gateway from a proxy');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await expect(requestDevelopmentToken(url, 'admin')).rejects.toThrow(`the identity server at ${url} refused a token for client "admin" (HTTP 502): Bad Gateway from a proxy`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
