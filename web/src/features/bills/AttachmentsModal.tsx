import { Button } from "../../components/ui/Button.tsx";
import { Dialog } from "../../components/ui/Dialog.tsx";
import { useBillFileLink, useBillFiles } from "./api/bills.api.ts";
import { billScreenMessages } from "./bill-format.ts";
import { followDownloadLink } from "../../lib/download-file.ts";

export interface AttachmentsModalProps {
  billId: number;
  onClose(): void;
}

/** 'Documentos adjuntos' (SPEC §2): the bill's files with a 'Descargar' button each, and 'Volver'. */
export function AttachmentsModal({ billId, onClose }: AttachmentsModalProps) {
  const files = useBillFiles(billId);
  const link = useBillFileLink();

  async function download(path: string) {
    try {
      const { url, fileName } = await link.mutateAsync({ path });
      followDownloadLink(url, fileName);
    } catch {
      // The link's toast is shown by the query client (meta.errorToast).
    }
  }

  const list = files.data ?? [];
  return (
    <Dialog className="modal attachments-modal" labelledBy="attachments-title" onClose={onClose}>
      <h2 id="attachments-title" className="modal__title">
        Documentos adjuntos
      </h2>
      <table className="data-table attachments-table">
        <thead>
          <tr>
            <th scope="col">Nombre archivo</th>
            <th scope="col">Descargar</th>
          </tr>
        </thead>
        <tbody>
          {list.map((file) => (
            <tr key={file.path}>
              <td className="attachments-table__name">{file.fileName}</td>
              <td>
                <Button variant="secondary" onClick={() => void download(file.path)} aria-label={`Descargar ${file.fileName}`}>
                  Descargar
                </Button>
              </td>
            </tr>
          ))}
          {files.isSuccess && list.length === 0 ? (
            <tr>
              <td colSpan={2}>{billScreenMessages.noFiles}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <div className="modal__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Volver
        </button>
      </div>
    </Dialog>
  );
}
