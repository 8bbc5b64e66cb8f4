import { DATA_EXPORT_VERSION, type DataExportDocument } from "../../contract/data-export.schema.ts";
import type { AppDeps } from "../../deps.ts";
import type { FhirCollectionBundle } from "../../providers/lab/lab.provider.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { calendarDayOf } from "../../contract/days.ts";

// What 'Descargar mis datos' gathers (issue 28): the portal's rows of the patient and what the laboratory and imaging
// providers hold. A provider that does not answer leaves its part null (datos.json) or empty (laboratorio.json) rather
// than failing the whole export.

/** From the first day the portal could hold results. */
const EARLIEST_DAY = "2000-01-01";

export interface GatheredExport {
  document: DataExportDocument;
  labBundle: FhirCollectionBundle;
  /** The bills' PDFs the ZIP carries: BillFile id and its path inside the ZIP. */
  files: Array<{ id: number; zipPath: string }>;
}

const safeName = (name: string) => name.replace(/[^\w.\- ]+/g, "_").slice(0, 80) || "documento.pdf";

export async function gatherExport(deps: AppDeps, userId: number, now: Date): Promise<GatheredExport> {
  const user = await deps.prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      rut: true,
      firstName: true,
      secondName: true,
      lastName: true,
      secondLastName: true,
      email: true,
      phoneNumber: true,
      birthDate: true,
      createdAt: true,
      dateTyc: true,
      noticePreference: { select: { results: true, bills: true, appointments: true } },
      termsAcceptances: { select: { version: true, acceptedAt: true }, orderBy: { acceptedAt: "asc" } },
      patientClinics: { select: { codeClinicStr: true, createdAt: true, clinic: { select: { title: true } } } },
      bills: {
        orderBy: [{ createAccountIdDate: "desc" }, { id: "desc" }],
        select: {
          id: true,
          accountCode: true,
          createAccountIdDate: true,
          amount: true,
          isPaid: true,
          clinic: { select: { title: true } },
          files: { select: { id: true, fileName: true, size: true }, orderBy: { id: "asc" } },
          transactions: { orderBy: { createdAt: "asc" } },
        },
      },
    },
  });
  const today = chileToday(now);
  const [labOrders, studies, labBundle] = await Promise.all([
    deps.providers.lab.listOrders(user.rut, { from: EARLIEST_DAY, to: today }).catch(() => null),
    deps.providers.imaging.searchStudies(user.rut, { from: EARLIEST_DAY, to: today }).catch(() => null),
    deps.providers.lab
      .exportReports(user.rut)
      .catch((): FhirCollectionBundle => ({ resourceType: "Bundle", type: "collection", timestamp: now.toISOString(), entry: [] })),
  ]);

  const files: GatheredExport["files"] = [];
  const bills = user.bills.map((bill) => ({
    id: bill.id,
    clinic: bill.clinic.title,
    accountCode: bill.accountCode,
    date: calendarDayOf(bill.createAccountIdDate),
    amount: bill.amount,
    status: bill.isPaid ? ("Pagada" as const) : ("Pendiente" as const),
    files: bill.files.map((file) => {
      const zipPath = `cuentas/${bill.id}/${file.id}-${safeName(file.fileName)}`;
      files.push({ id: file.id, zipPath });
      return { fileName: file.fileName, size: file.size, zipPath };
    }),
    payments: bill.transactions.map((payment) => ({
      buyOrder: payment.buyOrder,
      amount: payment.amount,
      status: payment.status,
      failureReason: payment.failureReason,
      authorizationCode: payment.authorizationCode,
      cardLast4: payment.cardNumber,
      paymentTypeCode: payment.paymentTypeCode,
      installmentsNumber: payment.installmentsNumber,
      transactionDate: payment.transactionDate?.toISOString() ?? null,
      createdAt: payment.createdAt.toISOString(),
    })),
  }));

  const document: DataExportDocument = {
    version: DATA_EXPORT_VERSION,
    generatedAt: now.toISOString(),
    patient: {
      rut: user.rut,
      firstName: user.firstName,
      secondName: user.secondName,
      lastName: user.lastName,
      secondLastName: user.secondLastName,
      email: user.email,
      phoneNumber: user.phoneNumber,
      birthDate: user.birthDate ? calendarDayOf(user.birthDate) : null,
      createdAt: user.createdAt.toISOString(),
      termsAcceptedAt: user.dateTyc?.toISOString() ?? null,
      emailNotices: user.noticePreference ?? { results: true, bills: true, appointments: true },
    },
    termsAcceptances: user.termsAcceptances.map((terms) => ({ version: terms.version, acceptedAt: terms.acceptedAt.toISOString() })),
    clinics: user.patientClinics.map((link) => ({
      key: link.codeClinicStr,
      title: link.clinic.title,
      registeredAt: link.createdAt.toISOString(),
    })),
    bills,
    laboratoryOrders: labOrders?.map(({ orderNumber, date, prestacion, status }) => ({ orderNumber, date, prestacion, status })) ?? null,
    imagingStudies:
      studies?.map(({ accessionNumber, date, modality, description, hasReport }) => ({
        accessionNumber,
        date,
        modality,
        description,
        hasReport,
      })) ?? null,
  };
  return { document, labBundle, files };
}
