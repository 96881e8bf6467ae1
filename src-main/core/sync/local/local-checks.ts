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
      message: `The file is ${formatBytes(size)} (${size.toLocaleString('en')} bytes); the service takes files up to ${formatBytes(rules.maxFileBytes)} (${rules.maxFileBytes.toLocaleString('en')} bytes).`,
    };
  }
  return null;
}
