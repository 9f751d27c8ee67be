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
  let stopping = false;
  // Filled once started: a service may fail while the others are still starting.
  const started: { system?: { stop(): Promise<void> } } = {};
  const system = await startEmbeddedSystem(config, useRabbitMq, {
    // A service that died on its thread leaves the system half-working: exit non-zero, as a
    // crash of the single process would, so whatever supervises npm start restarts it whole.
    onServiceFailure: (service, reason) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`${service} failed: ${reason}\n`);
      void (started.system?.stop() ?? Promise.resolve()).finally(() => telemetry.shutdown().finally(() => process.exit(1)));
    },
  });
  started.system = system;
  process.stdout.write(startupBanner(system, config.dataDir));

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
