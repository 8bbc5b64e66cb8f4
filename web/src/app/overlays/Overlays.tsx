import { useCallback, useEffect } from "react";
import { BlockingSpinner } from "./BlockingSpinner.tsx";
import { Modal } from "./Modal.tsx";
import { closeModal, useOverlayState, type ModalButton } from "../../lib/overlay-store.ts";
import { Toast } from "./Toast.tsx";

/** Locks page scroll while `locked` (the spinner or the modal is showing). */
function useScrollLock(locked: boolean) {
  useEffect(() => {
    if (!locked) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.body.style.overflow = previous;
    };
  }, [locked]);
}

/** The global overlays of SPEC §2, rendered once at the root from overlay-store. */
export function Overlays({ navigate }: { navigate(to: string): void }) {
  const { pendingRequests, toast, modal } = useOverlayState();
  useScrollLock(pendingRequests > 0 || modal !== null);

  const onClose = useCallback(
    (button: ModalButton | null) => {
      const target = closeModal(button);
      if (target) navigate(target);
    },
    [navigate],
  );

  return (
    <>
      {modal ? <Modal key={modal.id} options={modal} onClose={onClose} /> : null}
      {toast ? <Toast key={toast.id} message={toast.message} /> : null}
      {pendingRequests > 0 ? <BlockingSpinner /> : null}
    </>
  );
}
