import { showModal } from "../../lib/overlay-store.ts";

/** SPEC §4 incomplete profile (portal type 2): the modal shown when a patient must complete their data first. */
export function showIncompleteProfileModal(): void {
  void showModal({
    title: "Complete sus datos",
    body: "Para utilizar el portal deberá completar sus datos personales",
    buttons: ["Entendido"],
  });
}
