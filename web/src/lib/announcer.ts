// What a screen reader must hear when nothing it follows has changed (docs/accesibilidad.md, 'Revisión con lector de pantalla
// (Orca)'): a new screen without a page load, a login step that replaces the form, a save stopped by errors. Orca
// follows the focus and live regions only; when the focused element is removed (the login form, a screen left
// behind) it moves on in silence. One polite live region, in the page from the start and empty, says each message
// once, in one piece: a message is one paragraph of plain text, so Chromium hands it over as one insertion. A message
// said leaves the region again (after a few seconds, or when a modal opens): Chromium hands text at rest in a live
// region over again each time a modal closes, and Orca said the screen's name after every 'Adjuntos'.

/** Long enough for a screen reader to have taken the message, which it keeps once handed over. */
const MESSAGE_STAYS_MS = 5_000;

let region: HTMLElement | null = null;
let clearing: ReturnType<typeof setTimeout> | undefined;

function liveRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement("div");
  region.id = "announcer";
  region.className = "visually-hidden";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  document.body.append(region);
  return region;
}

/** The element that last took the focus: still in the page, it is where the user was, even if it let the focus go. */
let lastFocused: Element | null = null;

/** Puts the live region in the page now, so that the first message already finds it there, and follows the focus. */
export function prepareAnnouncer(): void {
  liveRegion();
  document.addEventListener("focusin", (event) => {
    if (event.target instanceof Element) lastFocused = event.target;
  });
}

/**
 * Nothing has the focus, and what last had it is gone (or nothing had it since the page loaded): Orca then follows
 * the next focus in silence. A button disabled while its request runs lets the focus go but is still there.
 */
export function focusLost(): boolean {
  const focused = document.activeElement;
  return (!focused || focused === document.body) && !lastFocused?.isConnected;
}

/** Says `message` to a screen reader without moving the focus; the previous message, already said, goes. */
export function announce(message: string): void {
  const paragraph = document.createElement("p");
  paragraph.textContent = message;
  liveRegion().replaceChildren(paragraph);
  clearTimeout(clearing);
  clearing = setTimeout(clearAnnouncement, MESSAGE_STAYS_MS);
}

/** Empties the live region (a modal is about to make the page behind it inert). */
export function clearAnnouncement(): void {
  clearTimeout(clearing);
  region?.replaceChildren();
}

/** Sentences joined into one message: each ends in a stop unless it already ends in punctuation. */
export function asSentences(...parts: string[]): string {
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (/[.!?:;]$/.test(part) ? part : `${part}.`))
    .join(" ");
}
