/**
 * A merchant's `callback_url` as an address a page may link or redirect to: an absolute `http` or
 * `https` URL, its scheme in any case (schemes are case-insensitive, RFC 3986 §3.1), or undefined.
 * Anything else a callback may hold (§8 bounds only its length) is shown, never followed: a bare
 * `www.example.com` would resolve against the sandbox's own host, a `javascript:` one would run.
 */
export function webAddress(text: string | null | undefined): URL | undefined {
  if (!text || !/^https?:\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text);
    // `http://127.0.0.1@evil.example/` goes to evil.example: an address with userinfo is made to
    // look like another, and no callback needs one.
    return url.username || url.password ? undefined : url;
  } catch {
    return undefined;
  }
}
