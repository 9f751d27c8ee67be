// `npm run token -- [--client <name>]`: prints a ready access token, and nothing else, on stdout,
// so `TOKEN=$(npm run -s token)` works. Failures go to stderr with a non-zero exit.
import { requestDevelopmentToken, resolveIdentityUrl, TokenRequestError } from './token.client';

const USAGE = 'usage: npm run token -- [--client <admin|reader>]';

function parseClient(argv: string[]): string {
  let client = 'admin';
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    if (flag === '--client' && argv[index + 1] !== undefined) {
      client = argv[index + 1];
      index += 1;
    } else if (flag.startsWith('--client=')) {
      client = flag.slice('--client='.length);
    } else {
      throw new TokenRequestError(`unknown argument ${flag}\n${USAGE}`);
    }
  }
  return client;
}

async function main(): Promise<void> {
  const client = parseClient(process.argv.slice(2));
  const token = await requestDevelopmentToken(resolveIdentityUrl(), client);
  process.stdout.write(`${token}\n`);
}

main().catch((error: unknown) => {
  console.error(`token: ${error instanceof TokenRequestError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
