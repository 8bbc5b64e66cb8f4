import { getToken } from "../../lib/storage.ts";

/**
 * Downloads the audit CSV of these filters: the REST route needs the session's token, so the file is fetched and
 * handed to the browser as a blob (no token ever goes into an address). Resolves false when the server refused.
 */
export async function downloadAuditCsv(query: URLSearchParams): Promise<boolean> {
  const token = getToken();
  const response = await fetch(`/api/rcr/v1/admin/audit/export.csv?${query.toString()}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) return false;
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "auditoria.csv";
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = name;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
