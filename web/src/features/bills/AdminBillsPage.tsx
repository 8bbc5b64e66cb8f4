import { UnavailableSection } from "../../components/ui/UnavailableSection.tsx";

/** The route exists; this screen belongs to a later issue. */
export default function AdminBillsPage() {
  return <UnavailableSection title="Cuentas hospitalarias" />;
}
