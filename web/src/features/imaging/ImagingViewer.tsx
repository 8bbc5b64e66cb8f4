import { useState } from "react";
import { Button } from "../../components/ui/Button.tsx";
import { Dialog } from "../../components/ui/Dialog.tsx";

export const MOBILE_VIEWER_NOTICE = "Atención: Se recomienda acceder al visor de imágenes desde un PC o laptop";

export interface ImagingViewerProps {
  url: string;
  title: string;
  /** Small screens first see the notice and may continue anyway (SPEC §2). */
  showMobileNotice: boolean;
  onClose(): void;
}

/** The viewer modal on the one Dialog: the study in an embedded frame and 'Volver'. Escape closes it. */
export function ImagingViewer({ url, title, showMobileNotice, onClose }: ImagingViewerProps) {
  const [noticeAccepted, setNoticeAccepted] = useState(!showMobileNotice);

  return (
    <Dialog className="viewer" labelledBy="viewer-title" initialFocus=".viewer__actions button:last-child" onClose={onClose}>
      <h2 id="viewer-title" className="viewer__title">
        {title}
      </h2>
      {noticeAccepted ? (
        <iframe className="viewer__frame" src={url} title="Visor de imágenes" referrerPolicy="no-referrer" />
      ) : (
        <div className="viewer__notice">
          <p role="note">{MOBILE_VIEWER_NOTICE}</p>
        </div>
      )}
      <div className="viewer__actions">
        <Button variant="secondary" onClick={onClose}>
          Volver
        </Button>
        {noticeAccepted ? null : <Button onClick={() => setNoticeAccepted(true)}>Continuar</Button>}
      </div>
    </Dialog>
  );
}
