import { describe, expect, it } from 'vitest';
import { builtInRulesOnly, ignoreRules } from '../../src-main/core/sync/local/ignore-rules';
import {
  IGNORED_EXAMPLES,
  ignoredRegistry,
  ignoreRuleOf,
} from '../../src-main/core/sync/local/ignored-files';

describe('ignored files: a bounded list with the rule for each', () => {
  it('names the rule in words, the user pattern quoted', () => {
    expect(ignoreRuleOf('.env', false)).toBe('hidden file (starts with a dot)');
    expect(ignoreRuleOf('site/.git', true)).toBe('hidden folder (starts with a dot)');
    expect(ignoreRuleOf('~$report.docx', false)).toBe('Office lock file (starts with ~$)');
    expect(ignoreRuleOf('a/b.TMP', false)).toBe('temporary file (.tmp)');
    expect(ignoreRuleOf('movie.mp4.crdownload', false)).toBe('download in progress (.part, .crdownload)');
    expect(ignoreRuleOf('Thumbs.db', false)).toBe('system file (Finder or Explorer thumbnails)');
    expect(ignoreRuleOf('build/out.js', false, '# comment\n*.log\nbuild/\n')).toBe('your pattern "build/"');
    expect(ignoreRuleOf('x.log', false, '*.log')).toBe('your pattern "*.log"');
  });

  // The scanner's fast path (list-tree.ts, KnownFiles) runs only under the built-in rules; the scan
  // hands the walk this counting wrapper, which must still be known as those rules.
  it('a counting test of the built-in rules is still known as them; one with patterns is not', () => {
    const reg = ignoredRegistry();
    expect(builtInRulesOnly(reg.track(1, '', ignoreRules('')).test)).toBe(true);
    expect(builtInRulesOnly(reg.track(2, '*.log', ignoreRules('*.log')).test)).toBe(false);
  });

  it('counts every ignored entry but keeps only the first examples, and only a finished scan counts', () => {
    const reg = ignoredRegistry();
    const scan = reg.track(7, '*.log', ignoreRules('*.log'));
    for (let i = 0; i < 100_000; i++) scan.test(`cache/${i}.log`);
    expect(scan.test('kept.txt')).toBe(false);
    expect(scan.test('.hidden', true)).toBe(true);
    expect(reg.get(7)).toBeNull();
    scan.finish(1234);
    const list = reg.get(7)!;
    expect(list.count).toBe(100_001);
    expect(list.examples).toHaveLength(IGNORED_EXAMPLES);
    expect(list.examples[0]).toEqual({
      path: 'cache/0.log',
      isDirectory: false,
      rule: 'your pattern "*.log"',
    });
    expect(list.scannedAt).toBe(1234);
  });
});
