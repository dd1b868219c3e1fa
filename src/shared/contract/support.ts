import { z } from 'zod';
import { SUBSCRIPTION_PLANS } from '../constants';
import { MESSAGES } from './errors';
import { typedText } from './fields';
import { maxCharacters } from './plain';

// The portal's support form and its requests as staff see them (docs/product/api.md#support).

export const SUPPORT_SUBJECT_MAX = 120;
export const SUPPORT_MESSAGE_MAX = 5_000;

export const supportRequestWriteSchema = z.object({
  subject: typedText().max(SUPPORT_SUBJECT_MAX, maxCharacters(SUPPORT_SUBJECT_MAX)),
  message: typedText().max(SUPPORT_MESSAGE_MAX, maxCharacters(SUPPORT_MESSAGE_MAX)),
  /** Whether a copy of the request is mailed to the sender too. */
  send_copy: z.boolean({ error: 'Must be true or false.' }).default(false),
});
export type SupportRequestWrite = z.input<typeof supportRequestWriteSchema>;

/** What the sender is told: the request's number, when it arrived, and whether it is answered first. */
export const supportRequestReceiptSchema = z.object({
  id: z.number().int(),
  /** ISO 8601. */
  created_at: z.string(),
  /** The sender's plan includes priority support (paid plans). */
  priority: z.boolean(),
});
export type SupportRequestReceipt = z.infer<typeof supportRequestReceiptSchema>;

// Staff (the admin's Support tab)

export const adminSupportRequestSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** The sender's e-mail and plan when the request was sent. */
  email: z.string(),
  plan: z.enum(SUBSCRIPTION_PLANS),
  subject: z.string(),
  message: z.string(),
  priority: z.boolean(),
  created_at: z.string(),
  /** When staff marked it handled; null while open. */
  handled_at: z.string().nullable(),
});
export type AdminSupportRequest = z.infer<typeof adminSupportRequestSchema>;

/** A person's own requests, as their data export lists them. */
export const supportRequestExportSchema = adminSupportRequestSchema.omit({ user_id: true });
export type SupportRequestExport = z.infer<typeof supportRequestExportSchema>;

export const adminSupportRequestListSchema = z.object({
  results: z.array(adminSupportRequestSchema),
  /** Requests matching the filter, of which at most ADMIN_SUPPORT_PAGE_SIZE (the newest) are listed. */
  count: z.number().int(),
  /** Requests not yet handled, whatever the filter. */
  open: z.number().int(),
});
export type AdminSupportRequestList = z.infer<typeof adminSupportRequestListSchema>;
export const ADMIN_SUPPORT_PAGE_SIZE = 200;

export const adminSupportQuerySchema = z.object({
  /** `true`: only requests not yet handled. */
  open: z.enum(['true', 'false'], { error: 'Must be true or false.' }).optional(),
});

export const adminSupportUpdateSchema = z.object({
  handled: z.boolean({ error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Must be true or false.') }),
});
export type AdminSupportUpdate = z.infer<typeof adminSupportUpdateSchema>;
