import type { ReactNode } from "react";
import { AlertIcon, CheckCircleIcon, CloseIcon } from "./icons.tsx";

export interface BannerProps {
  children: ReactNode;
  /** Shows a close button when given. */
  onClose?(): void;
  tone?: "error" | "info" | "success";
}

/** An inline message box (e.g. the login error), optionally closable. */
export function Banner({ children, onClose, tone = "error" }: BannerProps) {
  return (
    <div className={`banner banner--${tone}`} role={tone === "error" ? "alert" : "status"}>
      {tone === "success" ? <CheckCircleIcon className="banner__icon" /> : <AlertIcon className="banner__icon" />}
      <div className="banner__text">{children}</div>
      {onClose ? (
        <button type="button" className="banner__close" onClick={onClose} aria-label="Cerrar mensaje">
          <CloseIcon size={18} />
        </button>
      ) : null}
    </div>
  );
}
