import fc from 'fast-check';
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_PATTERNS,
  builtInIgnoresUtf8,
  ignoreRules,
} from '../../src-main/core/sync/local/ignore-rules';

// The fast path for folders without their own patterns must answer exactly as the `ignore` matcher.
describe('built-in ignore rules without user patterns', () => {
  const reference = ignore({ ignorecase: true }).add(BUILT_IN_PATTERNS);
  const fast = ignoreRules('');
  const paths = [
    'a.txt',
    '.env',
    'dir/.hidden',
    '.git/config',
    'x/.DS_Store',
    'Thumbs.db',
    'THUMBS.DB',
    'sub/thumbs.db.txt',
    '~$report.docx',
    'dir/~$x',
    'a~$b.txt',
    'movie.mp4.part',
    'movie.PART',
    'dl.crdownload',
    'dl.crdownload.pdf',
    'notes.tmp',
    'notes.TMP',
    'tmp/file.txt',
    'file.tmp/inner.txt',
    'deep/er/still.pdf',
    'a.part/b.pdf',
    'tmp',
    '-dash.txt',
    'ünïcødé name.pdf',
    '~',
    '~$',
    'a/~',
    'x.Tmp',
    '.tmp',
    'tmp.',
    'İ.tmp',
    '\u212Aelvin.PaRt',
    'a.\u0130MP',
    'thumbs.db/x.pdf',
    'xthumbs.db',
    'a//b.pdf',
  ];
  it.each(paths)('%s', (p) => {
    expect(fast(p)).toBe(reference.ignores(p));
    expect(fast(p, true)).toBe(reference.ignores(`${p}/`));
  });
  it('a comment-only pattern list still takes the fast path and the same answers', () => {
    const commented = ignoreRules('# nothing here\n\n');
    for (const p of paths) expect(commented(p)).toBe(reference.ignores(p));
  });
  it('user patterns still apply', () => {
    const withUser = ignoreRules('*.psd\n!.well-known');
    expect(withUser('art/x.psd')).toBe(true);
    expect(withUser('a.txt')).toBe(false);
  });
});

// The scanner's fast path judges a file's name in UTF-8 bytes, as find printed it.
describe('built-in rules on a name in UTF-8 bytes', () => {
  const strings = ignoreRules('');
  const judgeBytes = (name: string) => {
    const bytes = Buffer.from(`x/${name}!`, 'utf8'); // the name inside a larger buffer, as in find's output
    return builtInIgnoresUtf8(bytes, 2, bytes.length - 1);
  };
  it('answers as the string rules for names of any characters', () => {
    const names = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 14 }),
      fc.constantFrom(
        '.x',
        '~$a',
        'a.TMP',
        'b.Part',
        'c.crDownload',
        'THUMBS.db',
        'İ.tmp',
        '\u212A.part',
        '~',
      ),
    );
    fc.assert(
      fc.property(
        // '.' and '..' are no file's name (find never prints them as one); the string rules answer them as paths.
        names.filter((n) => !n.includes('/') && n !== '.' && n !== '..'),
        (name) => judgeBytes(name) === strings(name),
      ),
      { numRuns: 2000 },
    );
  });
});
