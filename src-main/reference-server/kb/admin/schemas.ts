import { type ZodError, z } from 'zod';
import { LeadEventSchema } from '../../../../src-shared/api/knowledge';

/** Bodies of the admin surface's bot, event and delivery calls (reference-server.md). */

const WebhookUrl = z
  .string()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http:// or https:// URL');

const Name = z.string().trim().min(1, 'must not be empty').max(200);
const LeadText = z.string().max(2000);

export const CreateBotBody = z.strictObject({
  client_id: z.number().int().positive(),
  name: Name,
  business_name: Name,
  webhook_url: WebhookUrl.nullable().optional(),
});

export const UpdateBotBody = z.strictObject({ webhook_url: WebhookUrl.nullable() });

export const RaiseEventBody = z.strictObject({
  event: LeadEventSchema,
  lead: z.strictObject({
    name: LeadText,
    email: LeadText,
    phone: LeadText,
    note: LeadText.nullable().optional(),
    asked_for_a_person: z.boolean().optional(),
  }),
  conversation: z.strictObject({ visitor_ref: z.string().min(1).max(200).optional() }).optional(),
});

/** `lead.email: expected string, received undefined; ...`: every problem, each naming its field. */
export function describeIssues(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
      return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
    })
    .join('; ');
}

/** A path id: a positive integer, or null. */
export function pathId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}
