// `npm run devstack -- <kind> --port <n> [--data <dir>]`: one stand-in in the foreground,
// logging to stdout, stopping cleanly on SIGINT/SIGTERM.
import fs from 'node:fs';
import path from 'node:path';
import type { RunningStandIn, StandInOptions } from './stand-in';

type Starter = (options: StandInOptions) => Promise<RunningStandIn>;

// Loaded lazily so one stand-in's dependencies are loaded only when it is asked for.
const starters: Record<string, () => Promise<Starter>> = {
  mongo: async () => (await import('./mongo/index.js')).startMongo,
  search: async () => (await import('./search/index.js')).startSearch,
  blob: async () => (await import('./blob/index.js')).startBlob,
  identity: async () => (await import('./identity/index.js')).startIdentity,
};

function parseArguments(argv: string[]): { kind: string; options: StandInOptions } {
  const [kind, ...rest] = argv;
  const options: StandInOptions = { port: 0 };
  for (let index = 0; index < rest.length; index += 1) {
    const flag = rest[index];
    const value = rest[index + 1];
    if (flag === '--port' && value !== undefined) {
      options.port = Number(value);
      index += 1;
    } else if (flag === '--data' && value !== undefined) {
      options.dataDir = path.resolve(value);
      index += 1;
    } else if (flag === '--host' && value !== undefined) {
      options.host = value;
      index += 1;
    } else {
      throw new Error(`unknown argument ${flag}`);
    }
  }
  if (!kind || !(kind in starters)) throw new Error(`usage: devstack <${Object.keys(starters).join('|')}> --port <n> [--data <dir>]`);
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) throw new Error('--port must be an integer from 0 to 65535');
  return { kind, options };
}

async function main(): Promise<void> {
  const { kind, options } = parseArguments(process.argv.slice(2));
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  const standIn = await (await starters[kind]())(options);
  console.log(JSON.stringify({ level: 'info', msg: `${kind} stand-in listening`, url: standIn.url, port: standIn.port, dataDir: options.dataDir ?? null }));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ level: 'info', msg: `${kind} stand-in stopping`, signal }));
    await standIn.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
