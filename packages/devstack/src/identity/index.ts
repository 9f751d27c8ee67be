export { startIdentity, type RunningIdentity } from './identity.server';
export * from './development-realm';
export { REPOSITORY_RESOURCE } from './provider.configuration';
export { SIGNING_KEY_FILE } from './signing-key.store';
