import { useState, type FormEvent } from "react";
import {
  CAREGIVER_PARTS,
  caregiverPartLabels,
  RELATIONSHIPS,
  relationshipLabels,
  ZCaregiverLinkForm,
  type CaregiverLinkDto,
  type CaregiverPart,
  type Relationship,
} from "@contract/caregivers.ts";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { Checkbox } from "../../components/ui/Checkbox.tsx";
import { SelectField } from "../../components/ui/SelectField.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { formatDay } from "../../lib/dates.ts";
import { showModal, showToast } from "../../lib/overlay-store.ts";
import { errorMessage } from "../../lib/trpc.ts";
import { useForm } from "../../lib/use-form.ts";
import { formatRutInput } from "../../lib/rut-input.ts";
import { useCreateLink, useDependentLinks, useRenewLink, useRevokeLink } from "./api/caregivers.api.ts";
import "./caregivers.css";

const stateLabels = { vigente: "Vigente", vencido: "Vencido", revocado: "Revocado" } as const;

export interface CaregiversSectionProps {
  dependentId: number;
  /** The dependent's birth date (YYYY-MM-DD) when on file; without it the form asks whether they are a minor. */
  birthDate: string | null;
}

/**
 * 'Cuidadores' on a patient's edit page (issue 30): who may act for this patient, in which parts and until when; staff
 * of the patient's clinics create, renew and revoke links.
 */
export function CaregiversSection({ dependentId, birthDate }: CaregiversSectionProps) {
  const links = useDependentLinks(dependentId);
  const [round, setRound] = useState(0);
  return (
    <Card title="Cuidadores" className="users-card" aria-label="Cuidadores">
      <p className="form__intro">
        Un cuidador (madre, padre, tutor legal u otra persona con un documento que lo acredite) usa el portal por este paciente con su
        propia cuenta, solo en las partes elegidas y hasta la fecha de término.
      </p>
      {links.data && links.data.length > 0 ? <LinksTable dependentId={dependentId} links={links.data} /> : null}
      {links.data && links.data.length === 0 ? <p>Este paciente no tiene cuidadores.</p> : null}
      <NewLinkForm key={round} dependentId={dependentId} birthDate={birthDate} onCreated={() => setRound((value) => value + 1)} />
    </Card>
  );
}

function LinksTable({ dependentId, links }: { dependentId: number; links: CaregiverLinkDto[] }) {
  const renew = useRenewLink(dependentId);
  const revoke = useRevokeLink(dependentId);
  const [renewals, setRenewals] = useState<Record<number, string>>({});

  async function confirmRevoke(link: CaregiverLinkDto) {
    const answer = await showModal({
      title: "Revocar vínculo",
      body: `${link.caregiver.name} dejará de actuar por este paciente de inmediato. ¿Desea continuar?`,
      icon: "delete",
      buttons: ["Volver", "Continuar"],
    });
    if (answer === "Continuar") revoke.mutate({ linkId: link.id }, { onSuccess: () => showToast("Vínculo revocado") });
  }

  return (
    <table className="caregivers-table">
      <thead>
        <tr>
          <th>Cuidador</th>
          <th>Relación y documento</th>
          <th>Partes</th>
          <th>Hasta</th>
          <th>Estado</th>
          <th>Acciones</th>
        </tr>
      </thead>
      <tbody>
        {links.map((link) => (
          <tr key={link.id}>
            <td data-label="Cuidador">
              {link.caregiver.name || link.caregiver.rut}
              <br />
              {link.caregiver.rut}
            </td>
            <td data-label="Relación">
              {relationshipLabels[link.relationship]}: {link.documentSeen}
            </td>
            <td data-label="Partes">{link.parts.map((part) => caregiverPartLabels[part]).join(", ")}</td>
            <td data-label="Hasta">{formatDay(link.expiresOn)}</td>
            <td data-label="Estado">{stateLabels[link.state]}</td>
            <td data-label="Acciones">
              {link.state === "revocado" ? null : (
                <div className="form__actions">
                  <TextField
                    label="Nueva fecha de término"
                    type="date"
                    value={renewals[link.id] ?? ""}
                    onChange={(event) => setRenewals((current) => ({ ...current, [link.id]: event.target.value }))}
                  />
                  <Button
                    variant="secondary"
                    disabled={!renewals[link.id] || renew.isPending}
                    onClick={() =>
                      renew.mutate({ linkId: link.id, expiresOn: renewals[link.id]! }, { onSuccess: () => showToast("Vínculo renovado") })
                    }
                  >
                    Renovar
                  </Button>
                  <Button variant="secondary" onClick={() => void confirmRevoke(link)} disabled={revoke.isPending}>
                    Revocar
                  </Button>
                </div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const emptyForm = { caregiverRut: "", relationship: "", documentSeen: "", parts: "", expiresOn: "", minor: "", minorUntil: "" };

function NewLinkForm({ dependentId, birthDate, onCreated }: { dependentId: number; birthDate: string | null; onCreated(): void }) {
  const form = useForm(ZCaregiverLinkForm, emptyForm);
  const create = useCreateLink(dependentId);
  const [refusal, setRefusal] = useState<string | null>(null);
  const parts = form.values.parts ? (form.values.parts.split(",") as CaregiverPart[]) : [];

  function togglePart(part: CaregiverPart, on: boolean) {
    const next = CAREGIVER_PARTS.filter((candidate) => (candidate === part ? on : parts.includes(candidate)));
    form.setValue("parts", next.join(","));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate() || create.isPending) return;
    const values = form.values;
    setRefusal(null);
    create.mutate(
      {
        dependentId,
        link: {
          caregiverRut: values.caregiverRut,
          relationship: values.relationship as Relationship,
          documentSeen: values.documentSeen,
          parts,
          expiresOn: values.expiresOn,
          ...(birthDate ? {} : { minor: values.minor === "si", ...(values.minor === "si" ? { minorUntil: values.minorUntil } : {}) }),
        },
      },
      {
        onSuccess: () => {
          showToast("Cuidador agregado");
          onCreated();
        },
        onError: (error) => setRefusal(errorMessage(error, "No fue posible guardar el vínculo, por favor intente más tarde")),
      },
    );
  }

  // Errors of the fields without a text input (shown once the field was left or the form submitted).
  const shownError = (name: "relationship" | "parts" | "minor") => form.field(name).error;
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Agregar cuidador">
      <h3>Agregar cuidador</h3>
      {refusal ? (
        <p className="field__error" role="alert">
          {refusal}
        </p>
      ) : null}
      <div className="form__grid">
        <TextField
          label="RUT del cuidador"
          {...form.field("caregiverRut", formatRutInput)}
          hint="El cuidador debe tener una cuenta de paciente"
        />
        <SelectField
          label="Relación"
          value={form.values.relationship}
          onChange={(value) => form.setValue("relationship", value)}
          options={[{ value: "", label: "Seleccione" }, ...RELATIONSHIPS.map((value) => ({ value, label: relationshipLabels[value] }))]}
          hint={shownError("relationship")}
        />
        <TextField label="Documento que vio" {...form.field("documentSeen")} hint="Por ejemplo: Certificado de nacimiento" />
        <TextField label="Fecha de término" type="date" {...form.field("expiresOn")} />
        {birthDate ? null : (
          <SelectField
            label="¿El paciente es menor de edad?"
            value={form.values.minor}
            onChange={(value) => form.setValue("minor", value)}
            options={[
              { value: "", label: "Seleccione" },
              { value: "no", label: "No" },
              { value: "si", label: "Sí" },
            ]}
            hint="No tiene fecha de nacimiento registrada"
          />
        )}
        {form.values.minor === "si" ? <TextField label="Fecha en que cumple 18 años" type="date" {...form.field("minorUntil")} /> : null}
      </div>
      <fieldset className="caregivers-parts">
        <legend className="field__label">Partes del portal</legend>
        {CAREGIVER_PARTS.map((part) => (
          <Checkbox key={part} checked={parts.includes(part)} onChange={(on) => togglePart(part, on)}>
            {caregiverPartLabels[part]}
          </Checkbox>
        ))}
      </fieldset>
      {shownError("parts") ? (
        <p className="field__error" role="alert">
          {shownError("parts")}
        </p>
      ) : null}
      <div className="form__actions">
        <Button type="submit" disabled={create.isPending}>
          Agregar cuidador
        </Button>
      </div>
    </form>
  );
}
