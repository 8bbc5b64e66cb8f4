import { useEffect, useRef, useState } from "react";
import { Button } from "../../components/ui/Button.tsx";

export const MOBILE_VIEWER_NOTICE = "Atención: Se recomienda acceder al visor de imágenes desde un PC o laptop";

export interface ImagingViewerProps {
  url: string;
  title: string;
  /** Small screens first see the notice and may continue anyway (SPEC §2). */
  showMobileNotice: boolean;
  onClose(): void;
}

/** The viewer modal: the study in an embedded frame and 'Volver'. Escape closes it; page scroll is locked meanwhile. */
export function ImagingViewer({ url, title, showMobileNotice, onClose }: ImagingViewerProps) {
  const [noticeAccepted, setNoticeAccepted] = useState(!showMobileNotice);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const previousFocus = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLButtonElement>(".viewer__actions button:last-child")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.body.style.overflow = previousOverflow;
      document.removeEventListener("keydown", onKey);
      previousFocus?.focus?.();
    };
  }, [onClose]);

  return (
    <div className="viewer-backdrop">
      <div ref={dialog} className="viewer" role="dialog" aria-modal="true" aria-labelledby="viewer-title">
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
      </div>
    </div>
  );
}
