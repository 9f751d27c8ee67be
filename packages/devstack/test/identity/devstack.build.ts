// Component tests run the identity stand-in from the built output (jest cannot load the ESM-only
// oidc-provider in-process), so they bring that output up to date first when the sources changed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const source = path.join(root, 'packages', 'devstack', 'src');
const dist = path.join(root, 'packages', 'devstack', 'dist');

function staleOutputs(): string[] {
  const inputs = ['devstack.cli.ts', 'stand-in.ts', ...fs.readdirSync(path.join(source, 'identity')).map((name) => path.join('identity', name))].filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts'),
  );
  return inputs.filter((name) => {
    const output = path.join(dist, name.replace(/\.ts$/, '.js'));
    return !fs.existsSync(output) || fs.statSync(output).mtimeMs < fs.statSync(path.join(source, name)).mtimeMs;
  });
}

export function ensureDevstackBuilt(): void {
  if (staleOutputs().length === 0) return;
  // Errors elsewhere in the workspace do not stop tsc from emitting this package.
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/devstack/tsconfig.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  const stale = staleOutputs();
  if (stale.length > 0) throw new Error(`devstack build left ${stale.join(', ')} out of date:\n${build.stdout}${build.stderr}`);
}

export const TOKEN_CLI = path.join(dist, 'identity', 'token.cli.js');
