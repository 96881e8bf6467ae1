import { z } from 'zod';
import { command } from './define';
import { KbEntryViewSchema } from './kb';

/**
 * Knowledge-entry link integrity (docs/knowledge-and-leads.md "Links to hosted files"): entries that
 * cite this account's CDN URLs, each URL live, gone or replaced by a newer version, read from the
 * remote index and the sync rows without a request.
 */
export const EntryLinkSchema = z.object({
  url: z.string(),
  status: z.enum(['LIVE', 'GONE', 'REPLACED', 'UNKNOWN']),
  fileId: z.number().int().nullable(),
  /** REPLACED: the newer version's URL. */
  currentUrl: z.string().nullable(),
});
export type EntryLinkView = z.infer<typeof EntryLinkSchema>;

export const EntryLinksSchema = z.object({
  entryId: z.number().int(),
  botId: z.number().int(),
  title: z.string(),
  links: z.array(EntryLinkSchema),
});
export type EntryLinksView = z.infer<typeof EntryLinksSchema>;

const Entries = z.object({ entries: z.array(EntryLinksSchema) });

export const linksCommands = {
  /** Entries of a bot (or of every bot) that cite the account's files, each link with its status. */
  'links.check': command(z.object({ botId: z.number().int().positive().optional() }).strict(), Entries),
  /** "Replace with the current URL": the entry's REPLACED links swapped, saved as an edit (outbox). */
  'links.fix': command(z.object({ entryId: z.number().int().positive() }).strict(), KbEntryViewSchema),
} as const;
