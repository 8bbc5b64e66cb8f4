import { randomBytes } from "node:crypto";

// A multipart/form-data body built by hand: the warm-up's bill with its PDF (server/ops/warm-up.ts), the load
// generator's (scripts/load/run.ts) and the tests', which control every byte (odd file names included).

interface MultipartFile {
  name: string;
  content: Uint8Array;
  type?: string;
  field?: string;
}

/** The file name is written inside quotes with `"` and `\` escaped, as browsers do. */
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
