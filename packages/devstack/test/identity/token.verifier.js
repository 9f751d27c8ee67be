'use strict';
// Verifies an access token the way the API gateway does (jwks-rsa + jsonwebtoken), in a plain
// Node process: jwks-rsa needs jose, which is ESM-only and cannot be loaded inside jest.
// Usage: node token.verifier.js '{"jwksUri":…,"issuer":…,"audience":…}' < token
const jwt = require('jsonwebtoken');
const jwksClient = require('jwks-rsa');

async function main() {
  const { jwksUri, issuer, audience } = JSON.parse(process.argv[2]);
  let token = '';
  for await (const chunk of process.stdin) token += chunk;
  const client = jwksClient({ jwksUri, cache: false });
  const getKey = (header, callback) => {
    client.getSigningKey(header.kid).then((key) => callback(null, key.getPublicKey()), callback);
  };
  const payload = await new Promise((resolve, reject) => {
    jwt.verify(token.trim(), getKey, { algorithms: ['RS256'], issuer, audience }, (error, verified) => (error ? reject(error) : resolve(verified)));
  });
  const { header } = jwt.decode(token.trim(), { complete: true });
  process.stdout.write(JSON.stringify({ ok: true, header, payload }));
}

main().catch((error) => {
  process.stdout.write(JSON.stringify({ ok: false, error: { name: error.name, message: error.message } }));
});
