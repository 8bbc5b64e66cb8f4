export { multipartBody } from "../../server/lib/multipart-body.ts";

/** A byte string that starts like a PDF, padded to the size asked. */
export function pdfBytes(size: number, fill = 0x20): Uint8Array {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set(Buffer.from("%PDF-1.7\n"), 0);
  return bytes;
}
