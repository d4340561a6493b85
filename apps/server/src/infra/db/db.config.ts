import { defineConfig, envOptionalString } from '../config/config.ts';

export const dbConfig = defineConfig({
  databaseUrl: {
    env: 'DATABASE_URL',
    schema: envOptionalString().refine((v) => v === undefined || /^(sqlite:|postgres(ql)?:\/\/)/.test(v), 'must start with sqlite: or postgres://'),
    doc: 'sqlite:<file> (default <DATA_DIR>/cadcloud.sqlite) or postgres://user@host/db',
  },
});
