import { expect, it } from 'vitest';
import { unstampedName } from '../../src-main/core/url-import/upload-source';

// Issue 34: Upload from URL and Import of the service's own links kept the old stamp in the new name.
it('a link of the service names its file without the stamp; any other address is left to the service', () => {
  const cdn = 'https://cdn.example.com/storage/12/site';
  expect(unstampedName(`${cdn}/mx0l5jke5759-notes.txt`)).toBe('notes.txt');
  expect(unstampedName(`${cdn}/mx0l5jke5759-my-notes.final.pdf`)).toBe('my-notes.final.pdf');
  expect(unstampedName(`${cdn}/mx0l5jke5759-R%C3%A9sum%C3%A9.docx`)).toBe('Résumé.docx');
  // Not the service's form: the service downloads them itself, as before.
  expect(unstampedName('https://example.com/files/2024-report.pdf')).toBeNull();
  expect(unstampedName('https://example.com/storage/x/site/mx0l5jke5759-notes.txt')).toBeNull();
  expect(unstampedName(`${cdn}/notes.txt`)).toBeNull();
  expect(unstampedName(`${cdn}/mx0l5jke5759-setup.exe`)).toBeNull();
  expect(unstampedName('not a url')).toBeNull();
});
