// Runs the identity stand-in as a child process (`devstack.cli.js identity`) from the built
// output. For callers that cannot load ESM-only oidc-provider in-process, such as jest.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { identityEndpoints } from './development-realm';
import type { RunningIdentity } from './identity.server';

/** `dist/devstack.cli.js`, whether this module runs from `src/identity` or `dist/identity`. */
export const DEVSTACK_CLI = path.resolve(__dirname, '..', '..', 'dist', 'devstack.cli.js');

export interface IdentityProcessOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  dataDir?: string;
  host?: string;
}

export interface RunningIdentityProcess extends RunningIdentity {
  readonly child: ChildProcess;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startIdentityProcess(options: IdentityProcessOptions = {}): Promise<RunningIdentityProcess> {
  const args = [DEVSTACK_CLI, 'identity', '--port', String(options.port ?? 0)];
  if (options.dataDir) args.push('--data', options.dataDir);
  if (options.host) args.push('--host', options.host);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(`identity stand-in exited (${signal ?? `code ${code}`}) before listening: ${stderr.trim()}`));
    child.once('exit', onExit);
    child.once('error', reject);
    lines.on('line', (line) => {
      let parsed: { url?: unknown } | undefined;
      try {
        parsed = JSON.parse(line) as { url?: unknown };
      } catch {
        return;
      }
      if (typeof parsed?.url === 'string') {
        child.off('exit', onExit);
        resolve(parsed.url);
      }
    });
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout?.resume();
  return {
    ...identityEndpoints(url),
    child,
    stop: async () => {
      const exited = waitForExit(child);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
