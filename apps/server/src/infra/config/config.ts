import { z } from 'zod';

/**
 * Each module declares its own configuration (name, env variable, schema, default); `loadConfig`
 * builds one validated object from all declarations. A wrong value stops start-up with a message
 * naming the variable, so an operator never runs on a silently ignored setting.
 */
export interface ConfigEntry<T> {
  env: string;
  schema: z.ZodType<T>;
  /** documentation shown in the README / error messages */
  doc: string;
}

export type ConfigDefinitions = Record<string, ConfigEntry<any>>;
export type ConfigValues<D extends ConfigDefinitions> = { [K in keyof D]: D[K] extends ConfigEntry<infer T> ? T : never };

export function defineConfig<D extends ConfigDefinitions>(defs: D): D {
  return defs;
}

export class ConfigError extends Error {
  constructor(public readonly problems: { env: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.env}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfigFrom<D extends ConfigDefinitions>(defs: D, env: Record<string, string | undefined>): ConfigValues<D> {
  const out: Record<string, unknown> = {};
  const problems: { env: string; message: string }[] = [];
  for (const [key, entry] of Object.entries(defs)) {
    const raw = env[entry.env];
    const parsed = entry.schema.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) out[key] = parsed.data;
    else problems.push({ env: entry.env, message: `${parsed.error.issues.map((i) => i.message).join('; ')} (got ${JSON.stringify(raw)}; ${entry.doc})` });
  }
  if (problems.length) throw new ConfigError(problems);
  return out as ConfigValues<D>;
}

/** Helpers for env strings */
export const envInt = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? def);
/** A count or 'unlimited' (null): free allowances an operator may lift. */
export const envCountOrUnlimited = (def: number) =>
  z
    .string()
    .regex(/^(\d+|unlimited)$/, "must be a whole number or 'unlimited'")
    .optional()
    .transform((v): number | null => (v === undefined ? def : v === 'unlimited' ? null : Number(v)));
export const envString = (def: string) => z.string().optional().transform((v) => v ?? def);
export const envOptionalString = () => z.string().optional();
/** A switch with no default: undefined when unset, so the caller can derive it. */
export const envOptionalBool = () =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'));
export const envBool = (def: boolean) => envOptionalBool().transform((v) => v ?? def);
export const envEnum = <T extends string>(values: readonly [T, ...T[]], def: T) =>
  z.enum(values as [T, ...T[]], { message: `must be one of ${values.join(', ')}` }).optional().transform((v) => v ?? def);
/** Byte sizes: plain bytes or with a unit (10MB, 5GB). */
export const envBytes = (def: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB)?$/i, 'must be a size such as 524288000 or 500MB')
    .transform((s) => {
      const m = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB)?$/i.exec(s)!;
      const mult = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 }[(m[2] ?? 'B').toUpperCase() as 'B'];
      return Math.round(Number(m[1]) * mult);
    })
    .optional()
    .transform((v) => v ?? def);
