import { type ZodType, z } from 'zod';
import { charCount } from '../../../src-shared/domain/kb-entry';
import { KB_DESCRIPTION_MAX, KB_TITLE_MAX } from '../../../src-shared/domain/limits';

/** The entry API's request bodies. Every failure is one 422 message that names the field. */

const FIELDS = ['title', 'description'] as const;

const CreateBody = z.strictObject({ title: z.string(), description: z.string().optional() });
const UpdateBody = z.strictObject({ title: z.string().optional(), description: z.string().optional() });

export type CreateFields = { title: string; description: string };
export type UpdateFields = { title?: string; description?: string };
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function checkCreate(body: unknown): Checked<CreateFields> {
  const shape = parseShape(CreateBody, body, '{"title": "...", "description": "..."}');
  if (!shape.ok) return shape;
  const fields = { title: shape.value.title, description: shape.value.description ?? '' };
  const problem = lengthProblems(fields);
  return problem ? { ok: false, message: problem } : { ok: true, value: fields };
}

export function checkUpdate(body: unknown): Checked<UpdateFields> {
  const shape = parseShape(UpdateBody, body, '{"description": "..."} (the fields to change)');
  if (!shape.ok) return shape;
  const fields: UpdateFields = {};
  if (shape.value.title !== undefined) fields.title = shape.value.title;
  if (shape.value.description !== undefined) fields.description = shape.value.description;
  if (fields.title === undefined && fields.description === undefined)
    return { ok: false, message: 'Nothing to change: send "title", "description" or both.' };
  const problem = lengthProblems(fields);
  return problem ? { ok: false, message: problem } : { ok: true, value: fields };
}

function parseShape<T>(schema: ZodType<T>, body: unknown, example: string): Checked<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, message: `The body must be a JSON object such as ${example}.` };
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const messages = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; allowed: ${FIELDS.join(', ')}.`;
    const field = String(issue.path[0] ?? 'body');
    if (!(field in body)) return `Field "${field}" is required.`;
    return `Field "${field}" must be a string, got ${describe((body as Record<string, unknown>)[field])}.`;
  });
  return { ok: false, message: messages.join(' ') };
}

function lengthProblems(fields: UpdateFields): string | null {
  if (fields.title !== undefined) {
    const n = charCount(fields.title);
    if (fields.title.trim() === '')
      return `Field "title" must not be empty (1 to ${KB_TITLE_MAX} characters).`;
    if (n > KB_TITLE_MAX) return `Field "title" has ${n} characters; the limit is ${KB_TITLE_MAX}.`;
  }
  if (fields.description !== undefined) {
    const n = charCount(fields.description);
    if (n > KB_DESCRIPTION_MAX)
      return `Field "description" has ${n} characters; the limit is ${KB_DESCRIPTION_MAX}.`;
  }
  return null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
