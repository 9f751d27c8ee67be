import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

describe('README configuration table', () => {
  it('when the services declare their variables, then the README table lists exactly them', () => {
    const generated = execFileSync(process.execPath, [path.join(root, 'scripts', 'config-table.js')], { encoding: 'utf8' }).trim();
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const table = /<!-- config-table:start -->\n([\s\S]*?)\n<!-- config-table:end -->/.exec(readme)?.[1];
    expect(table).toBe(generated);
  });
});
