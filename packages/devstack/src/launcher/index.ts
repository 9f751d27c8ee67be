export { startEmbeddedSystem, type RunningEmbeddedSystem } from './embedded-system';
export { loadLauncherConfig, launcherConfig, type LauncherConfig } from './launcher.config';
