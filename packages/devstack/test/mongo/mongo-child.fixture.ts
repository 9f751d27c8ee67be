// Runs the stand-in in a separate Node.js process (so a test can SIGKILL it): the sources are
// compiled to plain CommonJS with SWC into a temporary folder and started by a small script.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { transformFileSync } from '@swc/core';

const sourceDir = path.resolve(__dirname, '../../src/mongo');
const packageModules = path.resolve(__dirname, '../../node_modules');
let compiledDir: string | undefined;

function compile(): string {
  if (compiledDir) return compiledDir;
  const target = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-mongo-build-'));
  fs.mkdirSync(path.join(target, 'mongo'));
  for (const file of fs.readdirSync(sourceDir)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const { code } = transformFileSync(path.join(sourceDir, file), {
      jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
      module: { type: 'commonjs' },
    });
    fs.writeFileSync(path.join(target, 'mongo', file.replace(/\.ts$/, '.js')), code);
  }
  fs.writeFileSync(
    path.join(target, 'run-mongo.js'),
    `const { startMongo } = require('./mongo');
startMongo({ port: 0, dataDir: process.argv[2] }).then((server) => {
  process.stdout.write(JSON.stringify({ url: server.url }) + '\\n');
}, (error) => { console.error(error); process.exit(1); });
`,
  );
  compiledDir = target;
  return target;
}

export interface ChildMongo {
  url: string;
  process: ChildProcess;
}

export async function spawnMongo(dataDir: string): Promise<ChildMongo> {
  const directory = compile();
  const child = spawn(process.execPath, [path.join(directory, 'run-mongo.js'), dataDir], {
    env: { ...process.env, NODE_PATH: packageModules },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`mongo child exited with ${code}`)));
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) resolve(parsed.url);
      } catch {
        // pino log lines are not the address line
      }
    });
  });
  return { url, process: child };
}

/** Deletes the compiled sources (call from afterAll). */
export function removeCompiledServer(): void {
  if (compiledDir) fs.rmSync(compiledDir, { recursive: true, force: true });
  compiledDir = undefined;
}

export function killHard(child: ChildMongo): Promise<void> {
  return new Promise((resolve) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      resolve();
      return;
    }
    child.process.once('exit', () => resolve());
    child.process.kill('SIGKILL');
  });
}
