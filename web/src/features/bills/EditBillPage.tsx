import { useEffect, useMemo, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { formatRut } from "@contract/rut.ts";
import { billFormSchema, type BillFormValues } from "@contract/bills.schemas.ts";
import { showModal, showToast } from "../../lib/overlay-store.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { formatRutInput } from "../../lib/rut-input.ts";
import { errorMessage } from "../../lib/trpc.ts";
import { useBill, useCreateBill, useReloadBills, useRemoveBill, useRemoveBillFile, useUpdateBill } from "./api/bills.api.ts";
import { billDateInputValue, billScreenMessages } from "./bill-format.ts";
import { BillFilesField, type PendingFile } from "./BillFilesField.tsx";
import { UploadError, uploadBillFile } from "./upload-files.ts";
import "./bills.css";

const ADMIN_BILLS_PATH = "/admin/admin-bills";
const emptyForm: BillFormValues = { rut: "", accountCode: "", createAccountIdDate: "", amount: "", isPaid: "false" };
const statusOptions = [
  { value: "false", label: "Pendiente" },
  { value: "true", label: "Pagada" },
];

function fieldErrors(values: BillFormValues): Partial<Record<keyof BillFormValues, string>> {
  const result = billFormSchema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<keyof BillFormValues, string>> = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0] as keyof BillFormValues;
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * /admin/edit-bills (create) and /admin/edit-bills?accountCode=&accountId= (edit), SPEC §2 and §4: create sends the
 * bill, then uploads each PDF with its progress bar; edit removes the files marked, updates the bill, then uploads the
 * new ones. 'Guardar cambios' is enabled only when the form (RUT included) is valid.
 */
export default function EditBillPage() {
  const reloadBills = useReloadBills();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const accountIdParam = params.get("accountId");
  const editingId = accountIdParam && /^\d{1,9}$/.test(accountIdParam) ? Number(accountIdParam) : null;
  const editing = editingId !== null;

  const existing = useBill(editingId);
  const [values, setValues] = useState<BillFormValues>(emptyForm);
  const [touched, setTouched] = useState<Partial<Record<keyof BillFormValues, boolean>>>({});
  const [removed, setRemoved] = useState<string[]>([]);
  const [pending, setPending] = useState<PendingFile[]>([]);
  const [busy, setBusy] = useState(false);

  const create = useCreateBill();
  const update = useUpdateBill();
  const remove = useRemoveBill();
  const removeFile = useRemoveBillFile();

  useEffect(() => {
    const bill = existing.data;
    if (!bill) return;
    setValues({
      rut: formatRut(bill.rut),
      accountCode: bill.accountCode,
      createAccountIdDate: billDateInputValue(bill.createAccountIdDate),
      amount: String(bill.amount),
      isPaid: bill.isPaid ? "true" : "false",
    });
  }, [existing.data]);

  const errors = useMemo(() => fieldErrors(values), [values]);
  const valid = Object.keys(errors).length === 0;
  const set = (key: keyof BillFormValues, value: string) => setValues((current) => ({ ...current, [key]: value }));
  const shown = (key: keyof BillFormValues) => (touched[key] ? errors[key] : undefined);
  const blur = (key: keyof BillFormValues) => () => setTouched((current) => ({ ...current, [key]: true }));

  /** Uploads the pending files one by one; returns the failures (HTTP status each). */
  async function uploadPending(accountId: number): Promise<number[]> {
    const failures: number[] = [];
    for (const item of pending) {
      const progress = (fraction: number, failed = false) =>
        setPending((list) => list.map((p) => (p.key === item.key ? { ...p, progress: fraction, failed } : p)));
      progress(0);
      try {
        await uploadBillFile(accountId, item.file, (fraction) => progress(fraction));
      } catch (error) {
        progress(1, true);
        failures.push(error instanceof UploadError ? error.status : 0);
      }
    }
    return failures;
  }

  async function saveNew() {
    let accountId: number;
    try {
      const form = billFormSchema.parse(values);
      const created = await create.mutateAsync({
        rut: form.rut,
        accountCode: form.accountCode,
        createAccountIdDate: form.createAccountIdDate,
        amount: Number(form.amount),
        isPaid: form.isPaid === "true",
        clinicCode: currentClinic().key,
      });
      accountId = created.accountId;
    } catch (error) {
      await showModal({
        title: "Problema en el servicio",
        body: "No se pudo crear la cuenta hospitalaria",
        details: [["Detalle", errorMessage(error, "Error de sistema")]],
        buttons: ["Entendido"],
      });
      return;
    }
    const failures = await uploadPending(accountId);
    await reloadBills();
    if (failures.includes(413)) {
      await showModal({
        title: "Cuenta creada",
        body: "La cuenta fue creada, pero un documento tuvo un error de carga. Revise los archivos adjuntos.",
        buttons: ["Entendido"],
        navigateTo: ADMIN_BILLS_PATH,
      });
      return;
    }
    if (failures.length) {
      showToast(billScreenMessages.uploadFailed);
      void navigate(ADMIN_BILLS_PATH);
      return;
    }
    await showModal({ title: "Cuenta creada con éxito!", body: "La cuenta hospitalaria quedó registrada.", navigateTo: ADMIN_BILLS_PATH });
  }

  async function saveExisting(id: number) {
    try {
      for (const path of removed) await removeFile.mutateAsync({ path });
      const form = billFormSchema.parse(values);
      await update.mutateAsync({
        id,
        rut: form.rut,
        createAccountIdDate: form.createAccountIdDate,
        amount: Number(form.amount),
        isPaid: form.isPaid === "true",
      });
    } catch {
      // 'Error al subir los archivos' is the failed call's meta.errorToast (api/bills.api.ts).
      await reloadBills();
      return;
    }
    const failures = await uploadPending(id);
    await reloadBills();
    if (failures.length) {
      showToast(billScreenMessages.uploadFailed);
      return;
    }
    await showModal(
      pending.length
        ? { title: "Archivos subidos con éxito!", body: "La cuenta y sus documentos fueron actualizados.", navigateTo: ADMIN_BILLS_PATH }
        : { title: "Cambios actualizados", body: "¡Los cambios fueron guardados exitosamente!", navigateTo: ADMIN_BILLS_PATH },
    );
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    try {
      if (editingId !== null) await saveExisting(editingId);
      else await saveNew();
    } finally {
      setBusy(false);
    }
  }

  async function onDelete() {
    if (editingId === null) return;
    const answer = await showModal({
      title: "Eliminar cuenta",
      body: `¿Está seguro de eliminar la cuenta ${values.accountCode} y sus documentos? Esta acción no se puede deshacer.`,
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
        <form className="form bill-form" onSubmit={(event) => void onSubmit(event)} noValidate>
          <TextField
            label="RUT del paciente"
            value={values.rut}
            onChange={(event) => set("rut", formatRutInput(event.target.value))}
            onBlur={blur("rut")}
            error={shown("rut")}
            placeholder="12.345.678-5"
            autoComplete="off"
          />
          <TextField
            label="ID Cuenta"
            value={values.accountCode}
            onChange={(event) => set("accountCode", event.target.value.trim())}
            onBlur={blur("accountCode")}
            error={shown("accountCode")}
            readOnly={editing}
            inputMode="numeric"
            hint={editing ? "El ID de cuenta no se puede modificar" : undefined}
          />
          <TextField
            label="Fecha"
            type="date"
            value={values.createAccountIdDate}
            onChange={(event) => set("createAccountIdDate", event.target.value)}
            onBlur={blur("createAccountIdDate")}
            error={shown("createAccountIdDate")}
          />
          <TextField
            label="Monto"
            value={values.amount}
            onChange={(event) => set("amount", event.target.value.trim())}
            onBlur={blur("amount")}
            error={shown("amount")}
            inputMode="numeric"
          />
          <SelectField label="Estado" value={values.isPaid} options={statusOptions} onChange={(value) => set("isPaid", value)} />
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
            <Button type="submit" disabled={!valid || busy || (editing && !existing.data)}>
              Guardar cambios
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
