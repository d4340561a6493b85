export * from './envelope.ts';
export * from './errors.ts';
export * from './rules.ts';
export * from './cloud.ts';
export * from './transfer.ts';
export * from './fonts.ts';
export * from './shares.ts';
export * from './groups.ts';
