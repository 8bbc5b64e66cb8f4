import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { asSentences, clearAnnouncement, focusLost } from "../../lib/announcer.ts";
import { lockPageScroll } from "../../lib/page-scroll-lock.ts";

// The one dialog of the portal (issue 25): the native <dialog> opened with showModal(), so the browser puts it above
// everything and makes the page behind it inert. It takes the focus, keeps Tab inside, closes on Escape and gives
// the focus back to what had it. Every overlay (the global modal, the imaging viewer, the attachments) uses it.
// A dialog that opens when the focus was lost (on arrival from Webpay; after a screen replaced the one whose button
// had the focus) also says its title and description in a live region of its own: Orca then moved into it in silence
// (docs/accesibilidad.md, 'Revisión con lector de pantalla (Orca)'). Opened from a button, even one disabled while its request ran,
// the screen reader reads it as the focus enters, and it says nothing more. The region is inside the dialog: the page
// behind a modal is inert.

export interface DialogProps {
  /** Id of the element that names the dialog (its title). */
  labelledBy: string;
  /** Id of the element that describes it, if any. */
  describedBy?: string;
  /** Class of the box inside the dialog ('modal', 'viewer'…). */
  className: string;
  /** Selector of the element to focus first (default: the browser's, the first focusable one). */
  initialFocus?: string;
  /** Escape pressed: the owner closes the dialog by no longer rendering it. */
  onClose(): void;
  children: ReactNode;
}

const focusable =
  "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex='-1'])";

/** Popovers (the toast, the spinner) shown before the dialog opened go back above it, where they were. */
function raiseOpenPopovers(): void {
  for (const popover of document.querySelectorAll<HTMLElement>("[popover]:popover-open")) {
    popover.hidePopover();
    popover.showPopover();
  }
}

export function Dialog({ labelledBy, describedBy, className, initialFocus, onClose, children }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const [arrival, setArrival] = useState("");

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const arrivedWithoutFocus = focusLost();
    const unlockScroll = lockPageScroll();
    clearAnnouncement();
    element.showModal();
    if (initialFocus) element.querySelector<HTMLElement>(initialFocus)?.focus();
    raiseOpenPopovers();
    if (arrivedWithoutFocus) {
      const textOf = (id?: string) => (id ? (document.getElementById(id)?.textContent ?? "") : "");
      setArrival(asSentences(textOf(labelledBy), textOf(describedBy)));
    }
    return () => {
      unlockScroll();
      if (element.open) element.close();
      opener?.focus();
    };
    // Opened once per mount: the owner renders the dialog while it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Tab from the last control goes to the first, Shift+Tab from the first to the last: the focus stays inside. */
  function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab" || !dialog.current) return;
    const controls = [...dialog.current.querySelectorAll<HTMLElement>(focusable)];
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (!first || !last) return event.preventDefault();
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onKeyDown={keepFocusInside}
      onCancel={(event) => {
        // Escape: the owner decides (it stops rendering the dialog, which closes it).
        event.preventDefault();
        onCloseRef.current();
      }}
      onClose={() => {
        // Closed by the browser itself (a second Escape without a click in between is not cancelable).
        if (dialog.current?.isConnected) onCloseRef.current();
      }}
    >
      <div className={className}>{children}</div>
      <div className="visually-hidden" role="status">
        {arrival ? <p>{arrival}</p> : null}
      </div>
    </dialog>
  );
}
