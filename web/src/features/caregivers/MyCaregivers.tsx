import { caregiverPartLabels, relationshipLabels } from "@contract/caregivers.parts.ts";
import { Card } from "../../components/ui/Card.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { formatDay } from "../../lib/dates.ts";
import { showModal, showToast } from "../../lib/overlay-store.ts";
import { useMyCaregiverLinks, useRevokeMyCaregiver } from "./api/caregivers.api.ts";
import "./caregivers.css";

/**
 * 'Mis cuidadores' in 'Mi cuenta' (issue 30): who may act for the patient, in which parts and until when; the patient
 * revokes an adult's link themself (a minor's parent's or legal guardian's only the clinic can end).
 */
export function MyCaregivers() {
  const links = useMyCaregiverLinks();
  const revoke = useRevokeMyCaregiver();
  const caregivers = links.data?.caregivers ?? [];
  if (caregivers.length === 0) return null;

  async function confirmRevoke(id: number, name: string) {
    const answer = await showModal({
      title: "Revocar cuidador",
      body: `${name} dejará de ver sus datos y de actuar por usted de inmediato. ¿Desea continuar?`,
      icon: "delete",
      buttons: ["Volver", "Continuar"],
    });
    if (answer === "Continuar") revoke.mutate({ linkId: id }, { onSuccess: () => showToast("Vínculo revocado") });
  }

  return (
    <Card title="Mis cuidadores" aria-label="Mis cuidadores">
      <p>Estas personas pueden usar el portal por usted en las partes indicadas.</p>
      <ul className="caregivers-list">
        {caregivers.map((link) => (
          <li key={link.id} className="caregivers-list__item">
            <div>
              <strong>{link.caregiver.name}</strong> ({relationshipLabels[link.relationship]}), RUT {link.caregiver.rut}
              <br />
              {link.parts.map((part) => caregiverPartLabels[part]).join(", ")}
              {" · "}
              {link.state === "vencido" ? `Venció el ${formatDay(link.expiresOn)}` : `Hasta el ${formatDay(link.expiresOn)}`}
            </div>
            {link.revocableByDependent ? (
              link.state === "vigente" ? (
                <Button variant="secondary" onClick={() => void confirmRevoke(link.id, link.caregiver.name)} disabled={revoke.isPending}>
                  Revocar
                </Button>
              ) : null
            ) : (
              <span className="form__reason">
                Solo la clínica puede revocar el vínculo de su madre, padre o tutor legal mientras usted sea menor de edad.
              </span>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
