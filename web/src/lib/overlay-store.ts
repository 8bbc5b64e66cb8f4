import { useSyncExternalStore } from "react";

// One small store for the global overlays of SPEC §2: the blocking spinner, the red toast and the modal.
// Features call showToast / showModal / trackRequest; the components in this folder render the state.

export type ModalButton = "Volver" | "Eliminar" | "Continuar" | "Entendido";
export type ModalIcon = "confirm" | "delete" | "none";

export interface ModalOptions {
  title: string;
  body: string;
  /** 'confirm' shows the confirmation icon, 'delete' the delete icon (delete mode). Default 'confirm'. */
  icon?: ModalIcon;
  /** Buttons in order; default ['Entendido']. */
  buttons?: ModalButton[];
  /** Where to go when the modal closes (any button). */
  navigateTo?: string;
  /** Extra content under the body, e.g. a detail table. */
  details?: Array<[string, string]>;
}

interface OverlayState {
  pendingRequests: number;
  toast: { id: number; message: string } | null;
  modal: (ModalOptions & { id: number; resolve(button: ModalButton | null): void }) | null;
}

export const TOAST_DURATION_MS = 3000;
export const DEFAULT_TOAST_MESSAGE = "System error";

let state: OverlayState = { pendingRequests: 0, toast: null, modal: null };
const listeners = new Set<() => void>();
let nextId = 1;
let toastTimer: ReturnType<typeof setTimeout> | undefined;

function update(patch: Partial<OverlayState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current overlay state (what the components render). */
export function overlaySnapshot(): OverlayState {
  return state;
}

export function useOverlayState(): OverlayState {
  return useSyncExternalStore(subscribe, overlaySnapshot);
}

/** Marks an HTTP request in flight (the spinner shows while any is); call the returned function when it ends. */
export function trackRequest(): () => void {
  update({ pendingRequests: state.pendingRequests + 1 });
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    update({ pendingRequests: Math.max(0, state.pendingRequests - 1) });
  };
}

let priorityToastShowing = false;

/**
 * Shows the red toast for 3 seconds ('System error' by default). A `priority` toast (the session ended) is not
 * replaced by the failures that follow from the same cause while it shows.
 */
export function showToast(message: string = DEFAULT_TOAST_MESSAGE, options: { priority?: boolean } = {}): void {
  if (priorityToastShowing && !options.priority) return;
  clearTimeout(toastTimer);
  priorityToastShowing = options.priority === true;
  update({ toast: { id: nextId++, message } });
  toastTimer = setTimeout(() => {
    priorityToastShowing = false;
    update({ toast: null });
  }, TOAST_DURATION_MS);
}

export function hideToast(): void {
  clearTimeout(toastTimer);
  priorityToastShowing = false;
  update({ toast: null });
}

/** Opens the modal; resolves with the button pressed (null when dismissed) once it closes. */
export function showModal(options: ModalOptions): Promise<ModalButton | null> {
  state.modal?.resolve(null);
  return new Promise((resolve) => update({ modal: { ...options, id: nextId++, resolve } }));
}

/** Closes the modal with that button; returns the URL to navigate to, if configured. */
export function closeModal(button: ModalButton | null): string | undefined {
  const modal = state.modal;
  if (!modal) return undefined;
  update({ modal: null });
  modal.resolve(button);
  return modal.navigateTo;
}
