// The hand-labelled haematology sample (shared/data/dedup), for the engine's tests and the
// end-to-end quality test that imports it through the gateway.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type LabelledLine } from './evaluation';

function findRepositoryRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No pnpm-workspace.yaml above ${start}`);
  }
}

/**
 * The sample lives in `shared/` beside the repository; a clone made from a local checkout (a
 * scratch copy, as CI and the before-stop check make) finds it beside the checkout it came from.
 */
function findSamplePath(): string {
  const root = findRepositoryRoot(__dirname);
  const beside = (repository: string) => path.resolve(repository, '..', 'shared', 'data', 'dedup', 'haematology.jsonl');
  if (fs.existsSync(beside(root))) return beside(root);
  let origin = '';
  try {
    origin = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: root, encoding: 'utf8' }).trim().replace(/^file:\/\//, '');
  } catch {
    // Not a git checkout, or no origin: only the place beside the repository counts.
  }
  return path.isAbsolute(origin) && fs.existsSync(beside(origin)) ? beside(origin) : beside(root);
}

/** The sample's lines in file order and each record's gold group (`dup_group`). */
export function loadHaematologySample(): { lines: LabelledLine[]; groupOf: Map<string, string> } {
  const samplePath = findSamplePath();
  if (!fs.existsSync(samplePath)) {
    throw new Error(`The labelled deduplication sample is missing: expected ${samplePath} (<repo>/../shared/data/dedup/haematology.jsonl).`);
  }
  const lines = fs
    .readFileSync(samplePath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelledLine);
  return { lines, groupOf: new Map(lines.map((line) => [line.record_id, line.dup_group])) };
}
