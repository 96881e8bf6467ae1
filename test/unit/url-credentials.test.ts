import { describe, expect, it } from 'vitest';
import { hideSecretParams, hideUrlCredentials } from '../../src-shared/domain/url-credentials';

describe('a URL said in a results file, a log or an error', () => {
  it('hides a presigned link’s signature and credential, and keeps what names the file', () => {
    const s3 =
      'https://b.s3.amazonaws.com/photos/a.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261128%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261128T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=abc123def&versionId=7';
    const hidden = hideUrlCredentials(s3);
    expect(hidden).not.toContain('AKIAEXAMPLE');
    expect(hidden).not.toContain('abc123def');
    expect(hidden).toBe(
      'https://b.s3.amazonaws.com/photos/a.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=***&X-Amz-Date=20261128T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=***&versionId=7',
    );
  });

  it('hides an Azure SAS, a CloudFront signature, a token, case and escapes not counting', () => {
    expect(
      hideUrlCredentials('https://x.blob.core.windows.net/c/f.pdf?sv=2024&se=2026&sp=r&SIG=Zm9v%3D'),
    ).toBe('https://x.blob.core.windows.net/c/f.pdf?sv=2024&se=2026&sp=r&SIG=***');
    expect(hideUrlCredentials('https://d.cloudfront.net/f.pdf?Expires=1&Signature=s~x&Key-Pair-Id=K1')).toBe(
      'https://d.cloudfront.net/f.pdf?Expires=1&Signature=***&Key-Pair-Id=K1',
    );
    expect(hideUrlCredentials('https://u:p@h.example/f?access%5Ftoken=t0k&x=1#sig=frag')).toBe(
      'https://***@h.example/f?access%5Ftoken=***&x=1#sig=frag',
    );
  });

  it('leaves names that say which file is meant, and empty values, as they are', () => {
    for (const url of [
      'https://h.example/get?key=photos/a.jpg&id=12',
      'https://h.example/f.pdf?token=',
      'https://h.example/f.pdf?%E0%A4%A=1',
    ])
      expect(hideSecretParams(url)).toBe(url);
  });
});

describe('a server’s message quoting the link', () => {
  it('loses the signature too', async () => {
    const { hideCredentialsInText } = await import('../../src-shared/domain/url-credentials');
    expect(hideCredentialsInText('could not fetch https://h.example/f.pdf?X-Amz-Signature=abc: 403')).toBe(
      'could not fetch https://h.example/f.pdf?X-Amz-Signature=***: 403',
    );
  });
});
