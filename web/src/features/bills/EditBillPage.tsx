import { UnavailableSection } from "../../components/ui/UnavailableSection.tsx";

/** The route exists; this screen belongs to a later issue. */
export default function EditBillPage() {
  return <UnavailableSection title="Cuenta hospitalaria" />;
}
