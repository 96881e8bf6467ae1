import { extensionOf } from '../../../../src-shared/domain/extensions';

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Display names keep what was sent, minus control characters (they corrupt logs, terminals and UIs). */
export function cleanDisplayName(name: string): string {
  return name.replace(CONTROL, '');
}

const URL_NAME_MAX = 200;

/**
 * The file name inside the CDN URL: one path segment, never a path. Separators become `_`, control
 * characters go, and a long name is shortened keeping its extension. Unicode stays (the URL percent-encodes it).
 */
export function urlSafeName(name: string): string {
  let safe = cleanDisplayName(name).replace(/[/\\]/g, '_').trim();
  if (safe === '' || safe === '.' || safe === '..') safe = `file${safe}`;
  return shortened(safe, URL_NAME_MAX);
}

/** `name` in at most `max` characters (code points), its extension kept. */
export function shortened(name: string, max: number): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const ext = extensionOf(name);
  const tail = ext ? `.${ext}` : '';
  return chars.slice(0, max - [...tail].length).join('') + tail;
}

/** The last path segment of a URL, percent-decoded when it can be. */
export function urlBaseName(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
