// SPEC §2: the spinner and every modal lock page scroll while they show. They may overlap (a modal opened while a
// request runs), so the page scrolls again only when the last of them ends.

let locks = 0;
let overflowBefore = "";

/** Locks page scroll; call the returned function to release this lock (once). */
export function lockPageScroll(): () => void {
  if (locks++ === 0) {
    overflowBefore = document.body.style.overflow;
    document.body.style.overflow = "hidden";
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--locks === 0) document.body.style.overflow = overflowBefore;
  };
}
