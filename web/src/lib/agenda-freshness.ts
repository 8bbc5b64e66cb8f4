// The server keeps the agenda's answer to 'Mis citas' up to APPOINTMENTS_CACHE_SECONDS (at most 60) per instance
// (issue 44). The appointment lists ask it fresh for a minute after what a kept answer cannot know: the patient leaving
// 'Agendamiento' (a booking inside the clinic's frame is invisible to the portal) and a cancellation or confirmation
// (the next read may reach an instance that kept the answer from before it). A minute is the longest one is kept.
const FRESH_READS_MS = 60_000;
let freshReadsUntil = 0;

/** The next minute's appointment lists ask the agenda, not the server's kept answer. */
export function askAgendaFresh(): void {
  freshReadsUntil = Date.now() + FRESH_READS_MS;
}

/** Whether an appointment list should ask the agenda fresh now. */
export const agendaFreshReadDue = (): boolean => Date.now() < freshReadsUntil;
