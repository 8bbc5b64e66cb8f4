import { trackRequest } from "../../lib/overlay-store.ts";
import { getToken } from "../../lib/storage.ts";

export class UploadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sends one PDF to POST /files/upload?accountId= (multipart field `file`) with XMLHttpRequest, whose upload events
 * report progress (0–1). Rejects with UploadError carrying the HTTP status (413 when over 2 MB) and the server's message.
 */
export function uploadBillFile(accountId: number, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const end = trackRequest();
    const request = new XMLHttpRequest();
    request.open("POST", `/api/rcr/v1/files/upload?accountId=${accountId}`);
    const token = getToken();
    if (token) request.setRequestHeader("Authorization", `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      end();
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let message = "";
      try {
        message = (JSON.parse(request.responseText) as { message?: string }).message ?? "";
      } catch {
        // not JSON: keep the status only
      }
      reject(new UploadError(request.status, message));
    };
    request.onerror = () => {
      end();
      reject(new UploadError(0, ""));
    };
    const form = new FormData();
    form.append("file", file, file.name);
    request.send(form);
  });
}
