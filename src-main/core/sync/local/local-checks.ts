import { formatBytes } from '../../../../src-shared/domain/bytes';
import { extensionOf, isAllowedExtension } from '../../../../src-shared/domain/extensions';

/** The account's upload rules: GET /me `pricing`, or the documented values when offline. */
export interface UploadRules {
  allowedExtensions: readonly string[];
  maxFileBytes: number;
}

export interface SkipReason {
  code: 'EMPTY' | 'EXTENSION-NOT-ALLOWED' | 'FILE-TOO-LARGE';
  message: string;
}

/** Checks that cost no request: a file failing one is SKIPPED with the reason and never sent. */
export function localSkipReason(name: string, size: number, rules: UploadRules): SkipReason | null {
  const ext = extensionOf(name);
  if (!isAllowedExtension(ext, rules.allowedExtensions)) {
    return {
      code: 'EXTENSION-NOT-ALLOWED',
      message: ext
        ? `The extension ".${ext}" is not on the service's allow-list.`
        : 'The file has no extension; the service accepts only files with an allowed extension.',
    };
  }
  if (size === 0) return { code: 'EMPTY', message: 'The file is empty; the service refuses empty files.' };
  if (size > rules.maxFileBytes) {
    return {
      code: 'FILE-TOO-LARGE',
      // In bytes first: "200 MiB; the service takes files up to 200 MiB" read as 200 over 200 (issue 34).
      message: `The file is ${size.toLocaleString('en')} bytes, ${(size - rules.maxFileBytes).toLocaleString('en')} over the service's limit of ${rules.maxFileBytes.toLocaleString('en')} bytes (${formatBytes(rules.maxFileBytes)}).`,
    };
  }
  return null;
}
