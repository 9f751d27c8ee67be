import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@destiny/devstack/testing';

export const root = path.resolve(__dirname, '..', '..');

/** DESTINY_* variables giving every listener of the launcher its own free port and data folder. */
export async function launcherEnvironment(dataDir: string, amqpNamespace: string): Promise<Record<string, string>> {
  return {
    AMQP_NAMESPACE: amqpNamespace,
    DESTINY_DATA_DIR: dataDir,
    DESTINY_PORT: String(await freePort()),
    DESTINY_MONGO_PORT: String(await freePort()),
    DESTINY_SEARCH_PORT: String(await freePort()),
    DESTINY_BLOB_PORT: String(await freePort()),
    DESTINY_IDENTITY_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
}

export interface LauncherProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts a launcher entry (dist) and resolves once its output contains `readyText`. */
export function startLauncher(entry: 'launcher.cli.js' | 'cluster.cli.js', env: Record<string, string>, readyText: string, timeoutMs = 90_000): Promise<LauncherProcess> {
  return startCommand(process.execPath, [path.join(root, 'packages', 'devstack', 'dist', 'launcher', entry)], env, readyText, timeoutMs);
}

/** Starts `command` in the repository root and resolves once its output contains `readyText`. */
export function startCommand(command: string, args: string[], env: Record<string, string>, readyText: string, timeoutMs = 90_000): Promise<LauncherProcess> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(command)} ${args.join(' ')} not ready in time; output:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyText)) {
        clearTimeout(timer);
        resolve({ child, output: () => output, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(command)} ${args.join(' ')} exited with ${code} before it was ready; output:\n${output}`));
    });
  });
}

/** Runs `npm run token`'s program and returns its stdout. */
export function runTokenCommand(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'packages', 'devstack', 'dist', 'identity', 'token.cli.js'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
