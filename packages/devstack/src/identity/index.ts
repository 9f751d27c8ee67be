export { startIdentity, type RunningIdentity } from './identity.server';
export { startIdentityProcess, type IdentityProcessOptions, type RunningIdentityProcess } from './identity.process';
export * from './development-realm';
export { REPOSITORY_RESOURCE } from './provider.configuration';
export { generatePrivateKeyPem, SIGNING_KEY_FILE } from './signing-key.store';
export { IDENTITY_DISCOVERY_FILE, requestDevelopmentToken, resolveIdentityUrl, TokenRequestError } from './token.client';
