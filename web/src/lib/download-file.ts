/** Follows a signed download link in this tab: the server answers it as an attachment, so the page stays. */
export function followDownloadLink(url: string, fileName: string): void {
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = "noopener";
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}
