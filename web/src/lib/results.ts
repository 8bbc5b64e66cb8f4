import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { showModal, showToast } from "./overlay-store.ts";
import { currentClinic } from "./clinic.ts";
import { useTRPC } from "./trpc.ts";

// What the laboratory and imaging screens share: the SPEC §8 texts, day formats, and opening or e-mailing a report.

/** SPEC §8: failures of the laboratory and imaging lists and details, and of e-mail sending. */
export const RESULTS_ERROR_MESSAGE = "Hubo un error al procesar la solicitud, por favor intente más tarde";

/** YYYY-MM-DD → dd/mm/yyyy (the spec's query format and the date shown in the tables). */
export function toDmy(isoDay: string): string {
  const [year, month, day] = isoDay.split("-");
  return `${day}/${month}/${year}`;
}

/** Today in the browser's time zone, YYYY-MM-DD. */
export function localToday(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** SPEC §9: 12 months back to today. */
export function lastTwelveMonths(now: Date = new Date()): { from: string; to: string } {
  const back = new Date(now.getFullYear() - 1, now.getMonth(), now.getDate());
  // 29 February a year back is 28 February.
  if (back.getMonth() !== now.getMonth()) back.setDate(0);
  return { from: localToday(back), to: localToday(now) };
}

/** Opens a report PDF (a signed portal link) in a new tab. */
export function openReport(url: string): void {
  window.open(url, "_blank", "noopener");
}

/** 'Enviar por email': mails the report to the user's stored address; 'Email enviado' on success, the toast on failure. */
export function useMailReport() {
  const trpc = useTRPC();
  const mail = useMutation(trpc.reports.mail.mutationOptions());
  return async (documentLink: string) => {
    try {
      await mail.mutateAsync({ documentLink, clinic: currentClinic().key });
      await showModal({ title: "Email enviado", body: "Hemos enviado el informe a tu dirección de correo electrónico." });
    } catch {
      showToast(RESULTS_ERROR_MESSAGE);
    }
  };
}

/** Shows the SPEC §8 results toast once for each failed load. */
export function useResultsErrorToast(error: unknown): void {
  useEffect(() => {
    if (error) showToast(RESULTS_ERROR_MESSAGE);
  }, [error]);
}
