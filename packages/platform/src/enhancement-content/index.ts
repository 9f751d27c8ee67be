export * from './enhancement-content.config';
export * from './enhancement-content.errors';
export * from './enhancement-content.preparer';
export * from './full-text.links';
export * from './full-text.location';
export * from './full-text.store';
export * from './linked-data.validator';
export * from './enhancement-content.wiring';
