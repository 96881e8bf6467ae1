/**
 * Credentials in a URL (`https://user:password@host/...`) are the person's secret, not part of what
 * a results file, a log or an error says about the URL. In a URL the whole user part becomes `***`
 * (a token is often the user name alone); in free text (a server's message, a line that is no URL),
 * whatever follows `name:` up to an `@`.
 */
export function hideUrlCredentials(url: string): string {
  // The authority runs to the first / ? or #; its user part to the last @ within it.
  const hidden = url.replace(/^(\s*[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/?#]*@/, '$1***@');
  return hidden === url ? hideCredentialsInText(url) : hidden;
}

/** `user:secret@` anywhere in the text becomes `user:***@` (an email address has no colon before its @). */
export function hideCredentialsInText(text: string): string {
  return text.replace(/([^\s/?#@:"'<>]*):([^\s/?#@"'<>]+)@/g, '$1:***@');
}
