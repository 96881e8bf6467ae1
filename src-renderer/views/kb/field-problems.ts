import { checkEntryFields } from '../../../src-shared/domain/kb-entry';

export interface FieldProblems {
  title: string | null;
  description: string | null;
}

/**
 * Each field's own problem, so a title and a description that are both too long are both named at
 * once. The shared check stops at the first problem; here each field is checked with the other
 * one made valid.
 */
export function fieldProblems(fields: { title: string; description: string }): FieldProblems {
  return {
    title: checkEntryFields({ title: fields.title, description: '' })?.message ?? null,
    description: checkEntryFields({ title: 'x', description: fields.description })?.message ?? null,
  };
}
