import { UnavailableSection } from "../../components/ui/UnavailableSection.tsx";

/** The route exists; this screen belongs to a later issue. */
export default function ImagingPage() {
  return <UnavailableSection title="Exámenes de imagenología" />;
}
