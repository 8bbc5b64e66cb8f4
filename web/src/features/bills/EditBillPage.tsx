import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { formatRut } from "@contract/rut.ts";
import { billFormSchema, type BillFormValues } from "@contract/bills.schemas.ts";
import { showModal, showToast } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { useErrorSummary } from "../../components/ui/ErrorSummary.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { formatRutInput } from "../../lib/rut-input.ts";
import { useForm } from "../../lib/use-form.ts";
import { useBill, useBillPatient, useReloadBills, useRemoveBill } from "./api/bills.api.ts";
import { errorMessage } from "../../lib/trpc.ts";
import { useSaveBill, type SaveBillResult } from "./api/use-save-bill.ts";
import { billDateInputValue, billScreenMessages } from "./bill-format.ts";
import { BillFilesField, type PendingFile } from "./BillFilesField.tsx";
import "./bills.css";

const ADMIN_BILLS_PATH = "/admin/admin-bills";
const emptyForm: BillFormValues = { rut: "", accountCode: "", createAccountIdDate: "", amount: "", isPaid: "false" };
const trimmed = (value: string) => value.trim();
const statusOptions = [
  { value: "false", label: "Pendiente" },
  { value: "true", label: "Pagada" },
];

/** The text fields in the order of the form, with the label each shows and the error summary names it by. */
const billFieldLabels = { rut: "RUT del paciente", accountCode: "ID Cuenta", createAccountIdDate: "Fecha", amount: "Monto" } as const;
type BillField = keyof typeof billFieldLabels;
const billFieldId = (name: BillField) => `cuenta-${name}`;
const billText = (name: BillField) => ({ id: billFieldId(name), label: billFieldLabels[name] });

/** The bill as the form shows it. */
function formValuesOf(bill: {
  rut: string;
  accountCode: string;
  createAccountIdDate: string;
  amount: number;
  isPaid: boolean;
}): BillFormValues {
  return {
    rut: formatRut(bill.rut),
    accountCode: bill.accountCode,
    createAccountIdDate: billDateInputValue(bill.createAccountIdDate),
    amount: String(bill.amount),
    isPaid: bill.isPaid ? "true" : "false",
  };
}

/**
 * /admin/edit-bills (create) and /admin/edit-bills?accountCode=&accountId= (edit), SPEC §2 and §4: the form on
 * useForm with the contract's billFormSchema, saved by useSaveBill (the bill, then each PDF with its progress bar).
 * 'Guardar cambios' looks and reads disabled (greyed, aria-disabled) until the form (RUT included) is valid, with its
 * reason beside it; pressed anyway, the error summary lists what is wrong and the first field takes the focus
 * (issue 33, GOV.UK).
 */
export interface EditBillPageProps {
  /** Under the form of a stored bill: the payment feature's 'Pago con tarjeta' section ('Anular pago', issue 28). */
  renderPaymentSection?: (bill: { id: number; accountCode: string }) => ReactNode;
}

export default function EditBillPage({ renderPaymentSection }: EditBillPageProps = {}) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const accountIdParam = params.get("accountId");
  const editingId = accountIdParam && /^\d{1,9}$/.test(accountIdParam) ? Number(accountIdParam) : null;
  const editing = editingId !== null;

  const existing = useBill(editingId);
  const form = useForm(billFormSchema, emptyForm);
  const [removed, setRemoved] = useState<string[]>([]);
  const [pending, setPending] = useState<PendingFile[]>([]);
  const [busy, setBusy] = useState(false);
  const { save } = useSaveBill();
  const remove = useRemoveBill();
  const reloadBills = useReloadBills();

  // Issue 33: whose RUT was typed, once it is valid (a RUT with errors is not asked about).
  const rutField = form.field("rut", formatRutInput);
  const typedRut = form.values.rut.trim();
  const patient = useBillPatient(typedRut && !form.errors.rut ? typedRut : null);
  const unknownPatient = patient.isError ? errorMessage(patient.error, "No existe un paciente con ese RUT") : undefined;
  const errorSummary = useErrorSummary(billFieldLabels, billFieldId, { ...form.errors, rut: form.errors.rut ?? unknownPatient });
  const ready = form.isValid && !patient.isError;

  const loaded = existing.data;
  const { reset } = form;
  useEffect(() => {
    if (loaded) reset(formValuesOf(loaded));
    // Filled once per loaded bill.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded]);

  const showUploadProgress = (key: string, progress: number, failed: boolean) =>
    setPending((list) => list.map((item) => (item.key === key ? { ...item, progress, failed } : item)));

  async function showResult(result: SaveBillResult) {
    if (result.outcome === "create-failed") {
      await showModal({
        title: "Problema en el servicio",
        body: "No se pudo crear la cuenta hospitalaria",
        details: [["Detalle", result.detail]],
        buttons: ["Entendido"],
      });
      return;
    }
    if (result.outcome === "update-failed") return;
    const { created, uploadFailures } = result;
    if (created && uploadFailures.includes(413)) {
      await showModal({
        title: "Cuenta creada",
        body: "La cuenta fue creada, pero un documento tuvo un error de carga. Revise los archivos adjuntos.",
        buttons: ["Entendido"],
        navigateTo: ADMIN_BILLS_PATH,
      });
      return;
    }
    if (uploadFailures.length) {
      showToast(billScreenMessages.uploadFailed);
      if (created) void navigate(ADMIN_BILLS_PATH);
      return;
    }
    if (created) {
      await showModal({
        title: "Cuenta creada con éxito!",
        body: "La cuenta hospitalaria quedó registrada.",
        navigateTo: ADMIN_BILLS_PATH,
      });
      return;
    }
    await showModal(
      pending.length
        ? { title: "Archivos subidos con éxito!", body: "La cuenta y sus documentos fueron actualizados.", navigateTo: ADMIN_BILLS_PATH }
        : { title: "Cambios actualizados", body: "¡Los cambios fueron guardados exitosamente!", navigateTo: ADMIN_BILLS_PATH },
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || patient.isError) return errorSummary.stop();
    if (busy) return;
    setBusy(true);
    void save({ billId: editingId, values: form.values, removedPaths: removed, pending, onUploadProgress: showUploadProgress })
      .then(showResult)
      .finally(() => setBusy(false));
  }

  async function onDelete() {
    if (editingId === null) return;
    const answer = await showModal({
      title: "Eliminar cuenta",
      body: `¿Está seguro de eliminar la cuenta ${form.values.accountCode} y sus documentos? Esta acción no se puede deshacer.`,
      icon: "delete",
      buttons: ["Volver", "Eliminar"],
    });
    if (answer !== "Eliminar") return;
    try {
      await remove.mutateAsync({ id: editingId });
      await reloadBills();
      void navigate(ADMIN_BILLS_PATH);
    } catch {
      // 'error de sistema vuelva a intentarlo' is the delete's meta.errorToast (api/bills.api.ts).
    }
  }

  return (
    <div className="bills-page">
      <PageTitle
        title={editing ? "Modificar cuenta hospitalaria" : "Cargar cuenta a Paciente"}
        subtitle={editing ? undefined : `Clínica: ${currentClinic().title}`}
      />
      <Card className="bill-form-card">
        <form className="form bill-form" onSubmit={onSubmit} noValidate>
          {errorSummary.summary}
          <TextField
            {...billText("rut")}
            {...rutField}
            error={rutField.error ?? unknownPatient}
            hint={patient.data ? `Paciente: ${patient.data.name}` : undefined}
            placeholder="12.345.678-5"
            autoComplete="off"
          />
          <TextField
            {...billText("accountCode")}
            {...form.field("accountCode", trimmed)}
            readOnly={editing}
            inputMode="numeric"
            hint={editing ? "El ID de cuenta no se puede modificar" : undefined}
          />
          <TextField {...billText("createAccountIdDate")} type="date" {...form.field("createAccountIdDate")} />
          <TextField {...billText("amount")} {...form.field("amount", trimmed)} inputMode="numeric" hint="En pesos, por ejemplo 21.839" />
          <SelectField
            label="Estado"
            value={form.values.isPaid}
            options={statusOptions}
            onChange={(value) => form.setValue("isPaid", value === "true" ? "true" : "false")}
          />
          <BillFilesField
            stored={existing.data?.files ?? []}
            removed={removed}
            pending={pending}
            onToggleRemove={(path) => setRemoved((list) => (list.includes(path) ? list.filter((p) => p !== path) : [...list, path]))}
            onAdd={(files) =>
              setPending((list) => [
                ...list,
                ...files.map((file) => ({ key: `${file.name}-${file.size}-${Math.random()}`, file, progress: null })),
              ])
            }
            onDiscard={(key) => setPending((list) => list.filter((p) => p.key !== key))}
          />
          <div className="bill-form__actions">
            <Button variant="secondary" onClick={() => void navigate(ADMIN_BILLS_PATH)}>
              Volver
            </Button>
            {editing ? (
              <Button variant="danger" onClick={() => void onDelete()} disabled={busy}>
                Eliminar
              </Button>
            ) : null}
            <Button
              type="submit"
              aria-disabled={!ready || undefined}
              disabled={busy || (editing && !existing.data)}
              aria-describedby={ready ? undefined : "cuenta-motivo"}
            >
              Guardar cambios
            </Button>
          </div>
          {!ready ? (
            <p id="cuenta-motivo" className="form__reason">
              Para guardar, complete el RUT de un paciente, el ID de cuenta, la fecha, el monto y el estado.
            </p>
          ) : null}
        </form>
      </Card>
      {editingId !== null && loaded && renderPaymentSection
        ? renderPaymentSection({ id: editingId, accountCode: loaded.accountCode })
        : null}
    </div>
  );
}
