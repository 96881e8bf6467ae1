import { KB_DESCRIPTION_MAX, KB_MAX_ENTRIES, KB_TITLE_MAX } from './limits';

/**
 * Characters are counted as Unicode code points, the way a person counts them (an emoji is one),
 * so the editor's live count and the check before sending agree.
 */
export const charCount = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

export interface EntryFieldsProblem {
  code: 'KB-TITLE-REQUIRED' | 'KB-TITLE-TOO-LONG' | 'KB-DESCRIPTION-TOO-LONG' | 'KB-TOO-MANY-ENTRIES';
  field: 'title' | 'description' | 'entries';
  message: string;
}

/** The checks made before an edit is accepted, so the outbox never holds what the API refuses. */
export function checkEntryFields(fields: { title: string; description: string }): EntryFieldsProblem | null {
  const title = charCount(fields.title);
  if (fields.title.trim() === '')
    return {
      code: 'KB-TITLE-REQUIRED',
      field: 'title',
      message: 'The title is required (1 to 160 characters).',
    };
  if (title > KB_TITLE_MAX)
    return {
      code: 'KB-TITLE-TOO-LONG',
      field: 'title',
      message: `The title has ${title} characters; the limit is ${KB_TITLE_MAX}.`,
    };
  const description = charCount(fields.description);
  if (description > KB_DESCRIPTION_MAX)
    return {
      code: 'KB-DESCRIPTION-TOO-LONG',
      field: 'description',
      message: `The description has ${description} characters; the limit is ${KB_DESCRIPTION_MAX}.`,
    };
  return null;
}

/** `count` includes entries not yet sent: a bot holds at most 20, pending creates included. */
export function checkEntryCount(count: number): EntryFieldsProblem | null {
  if (count < KB_MAX_ENTRIES) return null;
  return {
    code: 'KB-TOO-MANY-ENTRIES',
    field: 'entries',
    message: `A bot holds at most ${KB_MAX_ENTRIES} entries (not yet synced ones included); delete one first.`,
  };
}
