import { Dialog } from "../../components/ui/Dialog.tsx";
import { CheckCircleIcon, TrashIcon } from "../../components/ui/icons.tsx";
import type { ModalButton, ModalOptions } from "../../lib/overlay-store.ts";

const buttonVariant: Record<ModalButton, string> = {
  Volver: "btn--secondary",
  Eliminar: "btn--danger",
  Continuar: "btn--primary",
  Entendido: "btn--primary",
};

export interface ModalProps {
  options: ModalOptions;
  onClose(button: ModalButton | null): void;
}

/**
 * The global modal: icon, title, body, optional detail table and the configured buttons, on the one Dialog (the main
 * button, the last, has the focus). Escape dismisses it.
 */
export function Modal({ options, onClose }: ModalProps) {
  const buttons = options.buttons?.length ? options.buttons : (["Entendido"] as ModalButton[]);
  const icon = options.icon ?? "confirm";

  return (
    <Dialog
      className="modal"
      labelledBy="modal-title"
      describedBy="modal-body"
      initialFocus=".modal__actions button:last-child"
      onClose={() => onClose(null)}
    >
      {icon !== "none" ? (
        <div className={`modal__icon modal__icon--${icon}`}>
          {icon === "delete" ? <TrashIcon size={36} /> : <CheckCircleIcon size={36} />}
        </div>
      ) : null}
      <h2 id="modal-title" className="modal__title">
        {options.title}
      </h2>
      <p id="modal-body" className="modal__body">
        {options.body}
      </p>
      {options.details?.length ? (
        <table className="modal__details">
          <tbody>
            {options.details.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="modal__actions">
        {buttons.map((button) => (
          <button key={button} type="button" className={`btn ${buttonVariant[button]}`} onClick={() => onClose(button)}>
            {button}
          </button>
        ))}
      </div>
    </Dialog>
  );
}
