import { ConfigError } from '@destiny/platform';
import { loadLauncherConfig } from './launcher.config';

describe('launcher configuration', () => {
  it('when DESTINY_SERVICE_THREADS is not set, then dedup-service, import-service and robot-broker get threads of their own', () => {
    expect(loadLauncherConfig({}).serviceThreads).toEqual(['dedup-service', 'import-service', 'robot-broker']);
  });

  it("when DESTINY_SERVICE_THREADS is 'none', then every service stays on the main thread", () => {
    expect(loadLauncherConfig({ DESTINY_SERVICE_THREADS: 'none' }).serviceThreads).toEqual([]);
  });

  it('when DESTINY_SERVICE_THREADS lists services with spaces and repeats, then each is named once', () => {
    expect(loadLauncherConfig({ DESTINY_SERVICE_THREADS: ' percolator, dedup-service,percolator ' }).serviceThreads).toEqual(['percolator', 'dedup-service']);
  });

  it('when DESTINY_SERVICE_THREADS names something that is not a backend service, then loading fails naming the variable and the choices', () => {
    const load = () => loadLauncherConfig({ DESTINY_SERVICE_THREADS: 'dedup-service,api-gateway' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/DESTINY_SERVICE_THREADS: api-gateway is not one of dedup-service, import-service, robot-broker, search-request-service, percolator/);
  });

  it('when OUTBOUND_ALLOWLIST is set, then the launcher keeps it for the services instead of its loopback default', () => {
    expect(loadLauncherConfig({}).OUTBOUND_ALLOWLIST).toBe('127.0.0.0/8,::1,localhost');
    expect(loadLauncherConfig({ OUTBOUND_ALLOWLIST: '127.0.0.2' }).OUTBOUND_ALLOWLIST).toBe('127.0.0.2');
    expect(loadLauncherConfig({ OUTBOUND_ALLOWLIST: '' }).OUTBOUND_ALLOWLIST).toBe('');
  });
});
