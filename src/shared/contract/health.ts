import { z } from 'zod';

export const healthOkSchema = z.object({ status: z.literal('ok'), db: z.literal('ok') });
export const healthDownSchema = z.object({ status: z.literal('error'), db: z.literal('unavailable') });
export type Health = z.infer<typeof healthOkSchema>;
