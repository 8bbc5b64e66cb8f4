import { useCallback, useEffect } from "react";
import { BlockingSpinner } from "./BlockingSpinner.tsx";
import { Modal } from "./Modal.tsx";
import { closeModal, useOverlayState, type ModalButton } from "../../lib/overlay-store.ts";
import { lockPageScroll } from "../../lib/page-scroll-lock.ts";
import { Toast } from "./Toast.tsx";

/** Locks page scroll while the spinner shows (a modal locks it itself, components/ui/Dialog.tsx). */
function useScrollLock(locked: boolean) {
  useEffect(() => (locked ? lockPageScroll() : undefined), [locked]);
}

/** The global overlays of SPEC §2, rendered once at the root from overlay-store. */
export function Overlays({ navigate }: { navigate(to: string): void }) {
  const { pendingRequests, toast, modal } = useOverlayState();
  useScrollLock(pendingRequests > 0);

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
