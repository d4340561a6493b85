// Loader hooks of module-log.mjs: runs on node's loader thread, sees every import (static and dynamic) of the process.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  appendFileSync(process.env.MODULE_LOG, `${process.pid} ${url}\n`);
  return next(url, context);
}
