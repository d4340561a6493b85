export * from './envelope.ts';
export * from './errors.ts';
export * from './rules.ts';
