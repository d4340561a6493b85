import { z } from 'zod';
import { defineConfig } from '../../infra/config/config.ts';

/**
 * The AI feedback assistant of spec section 7 is a third party's chat widget: off unless the operator names the
 * address of its script. Then getConfParamsByType{type:2} says so, the web loads that script (and only then), and
 * the Content-Security-Policy allows that one origin.
 */
export const commonConfig = defineConfig({
  aiAssistantScriptUrl: {
    env: 'AI_ASSISTANT_SCRIPT_URL',
    schema: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine((v) => v === undefined || /^https?:\/\/[^\s'"<>]+$/.test(v), 'must be an http(s) address'),
    doc: 'address of the AI feedback assistant script (spec section 7); unset: the assistant is off and nothing is loaded',
  },
});
