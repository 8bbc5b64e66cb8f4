// One failure, one message (issue 33): where SPEC §8 shows a toast and the page also tells the failure, the page's
// lasting message says the toast's own words first, so the two never read as two different problems.

/** A SPEC §8 toast text as the first sentence of a message in the page (its first letter capitalised). */
export function toastAsSentence(toast: string): string {
  const sentence = toast.charAt(0).toUpperCase() + toast.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
