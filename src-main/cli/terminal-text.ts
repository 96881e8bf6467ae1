/**
 * Names and messages that come from disk or from the service are shown to people in a terminal,
 * where ESC starts a control sequence (colours, cursor moves, window titles, clipboard writes), CR
 * overwrites the line and bidi overrides reverse what follows (`txt.exe` shown as `exe.txt`). Human
 * output shows them escaped instead: C0 and DEL as `\e`, `\r`, `\n`, `\t` or `\xHH`; C1 and the bidi
 * embeddings, overrides and isolates (U+202A-202E, U+2066-2069) as `\uHHHH`. A backslash is left
 * as it is (Windows paths stay readable), so the escaped text is for reading; `--json` carries
 * every name exactly.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same set without the line feed
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\x1b': '\\e', '\r': '\\r', '\n': '\\n', '\t': '\\t' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code < 0x80
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One name or value inside a line: every control character escaped, a line feed too. */
export function forTerminal(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** A whole printed text whose own line breaks are meant: everything else escaped. */
export function forTerminalLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, escapeOne);
}
