export * from './proto-files';
