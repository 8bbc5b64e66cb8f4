import { randomBytes } from "node:crypto";

export interface MultipartFile {
  name: string;
  content: Uint8Array;
  type?: string;
  field?: string;
}

/**
 * A multipart/form-data body built by hand, so tests control every byte (odd file names included). The file name is
 * written inside quotes with `"` and `\` escaped, as browsers do.
 */
export function multipartBody(
  fields: Record<string, string>,
  files: MultipartFile[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----portal${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    const quoted = file.name.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${quoted}"\r\n` +
          `Content-Type: ${file.type ?? "application/pdf"}\r\n\r\n`,
      ),
      Buffer.from(file.content),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** A byte string that starts like a PDF, padded to the size asked. */
export function pdfBytes(size: number, fill = 0x20): Uint8Array {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set(Buffer.from("%PDF-1.7\n"), 0);
  return bytes;
}
