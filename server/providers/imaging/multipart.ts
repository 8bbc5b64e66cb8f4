/**
 * The first part of a multipart/related body (WADO-RS bulk data answers), or the body itself when the server sent the
 * bytes without a multipart envelope. Returns null when the envelope is broken.
 */
export function firstMultipartPart(contentType: string | null, body: Uint8Array): Uint8Array | null {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? "")?.[1];
  if (!/^multipart\//i.test(contentType ?? "") || !boundary) return body;
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  const start = buffer.indexOf(delimiter);
  if (start < 0) return null;
  const headersEnd = buffer.indexOf("\r\n\r\n", start + delimiter.length);
  if (headersEnd < 0) return null;
  const contentStart = headersEnd + 4;
  const end = buffer.indexOf(Buffer.from(`\r\n--${boundary}`), contentStart);
  if (end < 0) return null;
  return new Uint8Array(buffer.subarray(contentStart, end));
}
