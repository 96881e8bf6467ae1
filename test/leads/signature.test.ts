import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { signatureMatches, whichSecretSigned } from '../../src-main/core/leads/signature';

// Expected digests come from outside the code under test: RFC 4231's published vector and the
// openssl command line, so a wrong HMAC in the code cannot agree with itself.
const opensslHmac = (body: string, secret: string) =>
  execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, '-hex', '-r'], { input: body })
    .toString()
    .split(' ')[0]!
    .trim();

const BODY =
  '{"event":"LEAD-CAPTURED","bot":{"id":1,"name":"Demo bot","business_name":"Demo business"},' +
  '"lead":{"name":"Asha","email":"asha@example.com","phone":"+91 98000 00000","note":null,"asked_for_a_person":false},' +
  '"conversation":{"id":42,"visitor_ref":"v-1","started_at":"2025-01-02 10:20"}}';

describe('X-Service-Signature verification', () => {
  it('accepts the RFC 4231 test case 2 vector', () => {
    const hex = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(signatureMatches(Buffer.from('what do ya want for nothing?'), `sha256=${hex}`, 'Jefe')).toBe(true);
    expect(
      signatureMatches(Buffer.from('what do ya want for nothing?'), `sha256=${hex.toUpperCase()}`, 'Jefe'),
    ).toBe(true);
  });

  it('accepts a lead body signed by openssl with the same secret', () => {
    const secret = 'whsec_test_0123456789';
    const hex = opensslHmac(BODY, secret);
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureMatches(Buffer.from(BODY), `sha256=${hex}`, secret)).toBe(true);
  });

  it('refuses a body with one byte changed', () => {
    const secret = 'whsec_test_0123456789';
    const header = `sha256=${opensslHmac(BODY, secret)}`;
    const tampered = Buffer.from(BODY);
    tampered[BODY.indexOf('Asha')] = 'B'.charCodeAt(0);
    expect(signatureMatches(tampered, header, secret)).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    const header = `sha256=${opensslHmac(BODY, 'someone-else')}`;
    expect(signatureMatches(Buffer.from(BODY), header, 'whsec_test_0123456789')).toBe(false);
  });

  it('refuses a missing, empty or malformed header', () => {
    const secret = 's';
    const hex = opensslHmac(BODY, secret);
    for (const header of [
      undefined,
      '',
      hex,
      `sha1=${hex}`,
      `sha256=${hex.slice(2)}`,
      `sha256=${hex}00`,
      'sha256=zz',
    ])
      expect(signatureMatches(Buffer.from(BODY), header, secret)).toBe(false);
  });

  it('refuses the same JSON re-encoded by a parser (the bytes are what is signed)', () => {
    const secret = 'whsec_test_0123456789';
    const header = `sha256=${opensslHmac(BODY, secret)}`;
    const reencoded = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(JSON.parse(reencoded)).toEqual(JSON.parse(BODY));
    expect(signatureMatches(Buffer.from(reencoded), header, secret)).toBe(false);
    expect(signatureMatches(Buffer.from(JSON.stringify(JSON.parse(BODY))), header, secret)).toBe(true);
  });

  it('finds which bot signed among several secrets', () => {
    const keys = [
      { botId: 1, secret: 'first' },
      { botId: 2, secret: 'second' },
    ];
    const header = `sha256=${opensslHmac(BODY, 'second')}`;
    expect(whichSecretSigned(Buffer.from(BODY), header, keys)?.botId).toBe(2);
    expect(whichSecretSigned(Buffer.from(BODY), `sha256=${opensslHmac(BODY, 'third')}`, keys)).toBeNull();
  });
});
