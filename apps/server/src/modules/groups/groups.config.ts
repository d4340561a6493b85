import { z } from 'zod';
import { defineConfig } from '../../infra/config/config.ts';

/**
 * Premium "raises group rights" (spec sections 1 and 6) without saying what a free account gets: FREE_GROUPS is how many
 * groups a free account may own. Unlimited by default, as groups were open to everyone before memberships existed; an
 * operator who sells groups sets a count (0: members only). RIGHTS_OPEN_TO_ALL=groups lifts it for everyone.
 */
export const groupsConfig = defineConfig({
  freeGroups: { env: 'FREE_GROUPS', schema: z.string().regex(/^(\d+|unlimited)$/, "must be a whole number or 'unlimited'").optional().transform((v): number | null => (v === undefined || v === 'unlimited' ? null : Number(v))), doc: "groups a free (non-member) account may own; 'unlimited' (the default) or a count, 0 members only" },
});
