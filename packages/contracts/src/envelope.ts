import { z } from 'zod';

/** Call style 2: `{data, clientInfo}` in, `{rtnCode, bizData, msg}` out. */
export const CLIENT_TYPES = ['Web_PC', 'Web_H5'] as const;
export const clientInfoSchema = z.object({
  clientType: z.string().default('Web_PC'),
  clientVersion: z.string().optional(),
  appVersion: z.string().optional(),
  language: z.string().optional(),
});
export type ClientInfo = z.infer<typeof clientInfoSchema>;

export function requestSchema<T extends z.ZodTypeAny>(data: T) {
  return z.object({ data, clientInfo: clientInfoSchema.optional(), style: z.number().optional(), secret: z.number().optional() });
}

export function responseSchema<T extends z.ZodTypeAny>(bizData: T) {
  return z.object({ rtnCode: z.string(), bizData: bizData.nullable(), msg: z.string() });
}

export interface Envelope<T> {
  rtnCode: string;
  bizData: T | null;
  msg: string;
}

export const RTN_SUCCESS = '0000000';
/** Not signed in / ticket invalid: the client logs out. */
export const RTN_NOT_SIGNED_IN = '101';
