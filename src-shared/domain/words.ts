/**
 * Words for people, shared by the renderer, the CLI and the core (issue 23): counts whose noun agrees
 * ("1 file", "2 files", never "file(s)"), durations said as a person would ("under a second", "about
 * 3 min"), and the reasons behind the codes a file is skipped for. Codes stay in `--json` and in a
 * detail a person can open; a sentence names the reason.
 */
const rules = new Intl.PluralRules('en');

/** "1 file", "2 files", "1,000 files": the count with the word agreeing (English rules). */
export function plural(n: number, one: string, other = `${one}s`): string {
  return `${n.toLocaleString('en')} ${rules.select(n) === 'one' ? one : other}`;
}

/** The noun alone, agreeing with n ("file" / "files"), for sentences that put the count elsewhere. */
export function noun(n: number, one: string, other = `${one}s`): string {
  return rules.select(n) === 'one' ? one : other;
}

/**
 * How long something takes, roughly: "under a second", "about 5 s", "about 3 min", "about 1 h 20 min",
 * "about 3 days". Never "0 s" for work that is not nothing.
 */
export function aboutDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return 'an unknown time';
  if (seconds < 1) return 'under a second';
  if (seconds < 60) return `about ${Math.round(seconds)} s`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min`;
  const h = Math.floor(seconds / 3600);
  if (h < 48) {
    const m = Math.round((seconds % 3600) / 60);
    return `about ${h} h${m ? ` ${m} min` : ''}`;
  }
  return `about ${Math.round(h / 24)} days`;
}

/** Time left, for a line that counts down: "under a second left"... as aboutDuration, shorter. */
export function timeLeftText(seconds: number): string {
  if (seconds < 1) return 'under a second';
  // Rounded to the second once, then split: 119.6 s said "1 min 60 s".
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  const h = Math.floor(whole / 3600);
  if (h < 48) return `${h} h ${Math.floor((whole % 3600) / 60)} min`;
  return `${Math.floor(h / 24)} days`;
}

/** Why a file is left out (its skip code), as a person reads it. Unknown codes fall back to the code. */
const SKIP_REASON: Record<string, string> = {
  'EXTENSION-NOT-ALLOWED': 'file types the service does not accept',
  'FILE-TOO-LARGE': 'over the size the service accepts',
  EMPTY: 'empty files',
  'FILE-EMPTY': 'empty files',
  'NAME-TOO-LONG': 'names too long for the service',
  'NOT-A-FILE': 'not regular files',
  UNREADABLE: 'could not be read',
  'LINK-LOOP': 'links that loop',
  'BROKEN-LINK': 'links to nothing',
  'LINK-OUTSIDE-FOLDER': 'links to places outside the folder',
  'LINKED-FOLDER': 'linked folders',
  'FOLDER-UNREADABLE': 'folders that could not be read',
  'BUCKET-INVALID': 'not allowed in this bucket',
};

export function skipReasonText(code: string): string {
  return SKIP_REASON[code] ?? code.toLowerCase().replace(/-/g, ' ');
}

/**
 * A folder's mode as the folder card says it ("upload only", "mirror"): the activity line said the
 * key ("(upload-only)") beside the card's words. Unknown modes fall back to the key without dashes.
 */
export function folderModeText(mode: string): string {
  return mode === 'upload-only' ? 'upload only' : mode.replace(/-/g, ' ');
}

/** A word with its first letter in capitals: "Billed to arrears". */
export function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A service code that has no words of its own here, said as one: "ACTIVE" -> "Active", "IN-GRACE" ->
 * "In grace". For a badge that would otherwise show the code in capitals.
 */
export function codeAsWord(code: string): string {
  return capitalised(code.toLowerCase().replace(/[-_]+/g, ' '));
}

/**
 * What kind of file a media type is, in words ("a Word document", "a video"): said where a file has no
 * preview, in place of the type ("No preview for application/vnd.openxmlformats-officedocument..."). The
 * file's extension decides when the type says little ("application/octet-stream").
 */
const KIND_BY_EXTENSION: Record<string, string> = {
  pdf: 'a PDF document',
  doc: 'a Word document',
  docx: 'a Word document',
  odt: 'a text document',
  xls: 'a spreadsheet',
  xlsx: 'a spreadsheet',
  ods: 'a spreadsheet',
  ppt: 'a presentation',
  pptx: 'a presentation',
  txt: 'a text file',
  json: 'a JSON file',
  psd: 'a Photoshop image',
  ai: 'an Illustrator drawing',
  tiff: 'an image',
  ttf: 'a font',
  eot: 'a font',
  otf: 'a font',
  woff: 'a font',
  woff2: 'a font',
};

export function fileKindText(mime: string, name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (KIND_BY_EXTENSION[ext]) return KIND_BY_EXTENSION[ext];
  const top = mime.split('/')[0];
  if (top === 'video') return 'a video';
  if (top === 'audio') return 'a sound file';
  if (top === 'image') return 'an image';
  if (top === 'font') return 'a font';
  if (top === 'text') return 'a text file';
  return ext ? `a .${ext} file` : 'a file of unknown type';
}

/**
 * The lead webhook's event codes in words, as the Leads view's badge and filter say them (issue 23); the
 * app's details and the leads CSV (beside the code, which machines read) take them from here. Unknown
 * codes are said as one (`codeAsWord`).
 */
const LEAD_EVENT: Record<string, string> = {
  'LEAD-CAPTURED': 'Lead captured',
  'HANDOFF-REQUESTED': 'Wants a person',
};

export function leadEventText(event: string): string {
  return LEAD_EVENT[event] ?? codeAsWord(event);
}

/** A service or app code in brackets inside a sentence: "(STORAGE-FAILED)", "(NETWORK)", "(HTTP-429)". */
const CODE_IN_BRACKETS = / ?\(([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+|[A-Z]{4,})\)/g;

/**
 * A log line as a person reads it, with the codes taken out for a tooltip (issue 34): "Upload of a.txt
 * failed (STORAGE-FAILED); retried at 20:31." reads "Upload of a.txt failed; retried at 20:31." and
 * keeps STORAGE-FAILED for the title. The log keeps the code: `--json` and the tooltip show it.
 */
export function withoutCodes(message: string): { text: string; codes: string[] } {
  const codes: string[] = [];
  const text = message.replace(CODE_IN_BRACKETS, (_m, code: string) => {
    codes.push(code);
    return '';
  });
  return { text, codes };
}

/**
 * A list import's outcome, for Activity and the toast after it (issue 34: the only toast after an import
 * was an unrelated "Folder in sync"): "Imported from a list of links (links.txt): 4 of 8 lines uploaded, 4 failed."
 */
export function importRunSentence(
  name: string,
  c: { lines: number; uploaded: number; alreadyDone: number; failed: number; skipped: number },
  stoppedBy: string | null,
): string {
  const parts = [`${c.uploaded.toLocaleString('en')} of ${plural(c.lines, 'line')} uploaded`];
  if (c.alreadyDone) parts.push(`${c.alreadyDone.toLocaleString('en')} done by an earlier run`);
  if (c.skipped) parts.push(`${c.skipped.toLocaleString('en')} skipped`);
  if (c.failed) parts.push(`${c.failed.toLocaleString('en')} failed`);
  return `Imported from a list of links (${name}): ${parts.join(', ')}${stoppedBy ? `; stopped: ${stoppedBy}` : ''}.`;
}
