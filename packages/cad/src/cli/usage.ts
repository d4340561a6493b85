import type { ParseArgsConfig } from 'node:util';

/** The options of every command (node:util parseArgs). */
export const CAD_OPTIONS = {
  width: { type: 'string' },
  dark: { type: 'boolean' },
  layout: { type: 'string' },
  fonts: { type: 'string' },
  images: { type: 'string' },
  'all-layouts': { type: 'boolean' },
  height: { type: 'string' },
  dpi: { type: 'string' },
  paper: { type: 'string' },
  orientation: { type: 'string' },
  scale: { type: 'string' },
  margin: { type: 'string' },
  color: { type: 'string' },
  ctb: { type: 'string' },
  background: { type: 'string' },
  area: { type: 'string' },
  version: { type: 'string' },
  pages: { type: 'string' },
  stack: { type: 'boolean' },
  calibrate: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];
export type CadOptions = { [K in keyof typeof CAD_OPTIONS]?: (typeof CAD_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** A wrong command line: exits 2 with the message. */
export class UsageError extends Error {}

// 25 s for LibreDWG, so a file that hangs it still ends within the 30 s the spec allows
export const DWG_TIMEOUT_MS = 25_000;
