import { spawn } from 'node:child_process';
import path from 'node:path';

export interface VerifiedToken {
  ok: true;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

export interface RejectedToken {
  ok: false;
  error: { name: string; message: string };
}

/** Verifies `token` with jwks-rsa + jsonwebtoken against the JWKS at `jwksUri` (RS256 only). */
export function verifyWithJwks(token: string, expected: { jwksUri: string; issuer: string; audience: string }): Promise<VerifiedToken | RejectedToken> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'token.verifier.js'), JSON.stringify(expected)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('close', () => {
      try {
        resolve(JSON.parse(output) as VerifiedToken | RejectedToken);
      } catch {
        reject(new Error(`token verifier printed no result: ${output}`));
      }
    });
    child.stdin.end(token);
  });
}
