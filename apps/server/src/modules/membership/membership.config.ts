import { z } from 'zod';
import { RIGHTS, type Right } from '@cadcloud/contracts';
import { defineConfig } from '../../infra/config/config.ts';

/** A comma list of rights, or 'all' / 'none'. */
const envRights = () =>
  z
    .string()
    .optional()
    .transform((v, ctx): Right[] => {
      const s = (v ?? 'none').trim().toLowerCase();
      if (s === 'none' || s === '') return [];
      if (s === 'all') return [...RIGHTS];
      const names = s.split(',').map((x) => x.trim()).filter(Boolean);
      const byLower = new Map(RIGHTS.map((r) => [r.toLowerCase(), r]));
      const out: Right[] = [];
      for (const n of names) {
        const r = byLower.get(n);
        if (!r) ctx.addIssue({ code: 'custom', message: `unknown right '${n}' (one of ${RIGHTS.join(', ')}, or all / none)` });
        else out.push(r);
      }
      return out;
    });

/**
 * The operator's switches over the rights model (issue 22 part 2): each gate a membership opens can be opened for
 * everyone (a company running its own server makes everything free with RIGHTS_OPEN_TO_ALL=all). Decompression keeps
 * its own switch UNZIP_MEMBERS_ONLY (modules/unzip, off by default: the spec gates nothing there). The free counts
 * stay with their features: FREE_CONVERSIONS_PER_MONTH, FREE_3D_TRIALS, FREE_GROUPS.
 */
export const membershipConfig = defineConfig({
  rightsOpenToAll: {
    env: 'RIGHTS_OPEN_TO_ALL',
    schema: envRights(),
    doc: `rights every account has without a membership: a comma list of ${RIGHTS.join(', ')}; 'all' makes everything free; default none`,
  },
});
