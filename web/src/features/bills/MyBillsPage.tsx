import { UnavailableSection } from "../../components/ui/UnavailableSection.tsx";

/** The route exists; this screen belongs to a later issue. */
export default function MyBillsPage() {
  return <UnavailableSection title="Cuentas hospitalarias" />;
}
