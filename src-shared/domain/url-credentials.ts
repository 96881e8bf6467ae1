/**
 * Credentials in a URL (`https://user:password@host/...`) are the person's secret, not part of what
 * a results file, a log or an error says about the URL. In a URL the whole user part becomes `***`
 * (a token is often the user name alone); in free text (a server's message, a line that is no URL),
 * whatever follows `name:` up to an `@`.
 */
export function hideUrlCredentials(url: string): string {
  // The authority runs to the first / ? or #; its user part to the last @ within it.
  const hidden = url.replace(/^(\s*[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/?#]*@/, '$1***@');
  return hidden === url ? hideCredentialsInText(url) : hideSecretParams(hidden);
}

/**
 * Query parameters that carry a signature or a token: a presigned link (S3, Google Cloud Storage,
 * CloudFront, an Azure SAS) is a password for as long as it lives. Only names that never say which
 * file is meant: a results file matches a line of a later run by its URL as written there, so hiding
 * `?key=` or `?id=` would make two files one. A link signed anew still matches its earlier line.
 */
const SECRET_PARAM =
  /^(x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|signature|sig|token|access_token|id_token|api_key|apikey|password|passwd|secret|client_secret)$/i;

export function hideSecretParams(url: string): string {
  // A value ends where the link does; in a sentence, punctuation after it is the sentence's.
  return url.replace(
    /([?&])([^=&#\s]+)=([^&#\s"'<>]*?)(?=[.,:;)]*(?:[&#\s"'<>]|$))/g,
    (whole, sep: string, name: string, value: string) => {
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape is a name no secret has.
      }
      return SECRET_PARAM.test(decoded) && value !== '' ? `${sep}${name}=***` : whole;
    },
  );
}

/**
 * `user:secret@` anywhere in the text becomes `user:***@` (an email address has no colon before its @),
 * and a quoted link's signature is hidden as in a URL.
 */
export function hideCredentialsInText(text: string): string {
  return hideSecretParams(text.replace(/([^\s/?#@:"'<>]*):([^\s/?#@"'<>]+)@/g, '$1:***@'));
}
