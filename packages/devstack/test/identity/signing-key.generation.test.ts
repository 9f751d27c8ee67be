// Generating signing keys under a garbage collection at every turn: Node 20 deadlocks when a key
// object returned by generateKeyPairSync is exported while a collection frees the job that made it
// (both take the key's one mutex on the same thread; 40 keys exported 50 times each that way hang
// under --gc-interval=50). Run in a child process with V8's --gc-interval, from the built output.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureDevstackBuilt } from './devstack.build';

const store = path.resolve(__dirname, '..', '..', 'dist', 'identity', 'signing-key.store.js');

function runUnderGcStress(script: string): { status: number | null; signal: NodeJS.Signals | null; output: string } {
  const run = spawnSync(process.execPath, ['--gc-interval=50', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, signal: run.signal, output: `${run.stdout}${run.stderr}` };
}

describe('signing key generation under garbage collection', () => {
  beforeAll(() => ensureDevstackBuilt());

  it('when keys are generated and exported while collections run at every turn, then every one completes', () => {
    const run = runUnderGcStress(
      `const crypto = require('node:crypto'); const store = require(${JSON.stringify(store)});
       for (let i = 0; i < 20; i += 1) {
         const key = crypto.createPrivateKey(store.generatePrivateKeyPem());
         for (let j = 0; j < 50; j += 1) key.export({ format: 'jwk' });
         store.generateSigningKey();
       }
       console.log('done');`,
    );
    expect(run).toEqual({ status: 0, signal: null, output: 'done\n' });
  });
});
