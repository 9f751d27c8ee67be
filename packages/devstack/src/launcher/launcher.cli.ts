// `npm start`: the embedded default — every stand-in and all six services in one process.
import { startTelemetryFromEnvironment } from '@destiny/platform/telemetry/telemetry';

const telemetry = startTelemetryFromEnvironment('destiny-embedded');

async function main(): Promise<void> {
  const fs = await import('node:fs');
  const { launcherPorts, loadLauncherConfig } = await import('./launcher.config.js');
  const { assertPortsFree, tcpReachable } = await import('./port-check.js');
  const { startEmbeddedSystem } = await import('./embedded-system.js');
  const { startupBanner } = await import('./banner.js');

  const config = loadLauncherConfig();
  fs.mkdirSync(config.dataDir, { recursive: true });
  await assertPortsFree(launcherPorts(config), config.DESTINY_HOST);
  const amqp = new URL(config.AMQP_URL);
  const useRabbitMq = await tcpReachable(amqp.hostname, Number(amqp.port || 5672));
  const system = await startEmbeddedSystem(config, useRabbitMq);
  process.stdout.write(startupBanner(system, config.dataDir));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\nStopping (${signal})...\n`);
    await system.stop();
    await telemetry.shutdown();
    process.stdout.write('Stopped.\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch(async (error: unknown) => {
  process.stderr.write(`npm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  await telemetry.shutdown();
  process.exit(1);
});
