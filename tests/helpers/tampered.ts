const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * The signed token (a JWT: header.payload.signature) with one character of its signature changed: the first, which
 * always carries six bits of it. Changing the last characters does not always change a signature: the last one of an
 * HS256 signature carries only four bits, so a different character can decode to the same bytes (and the token still
 * verifies: tests/api/auth-rate-limit.test.ts once found it so).
 */
export function tamperedSignature(token: string): string {
  const start = token.lastIndexOf(".") + 1;
  const first = token[start]!;
  const other = BASE64URL[(BASE64URL.indexOf(first) + 1) % BASE64URL.length]!;
  return `${token.slice(0, start)}${other}${token.slice(start + 1)}`;
}
