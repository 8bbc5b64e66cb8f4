import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";

/** Placeholder until this feature's screen is built. */
export default function MyBillsPage() {
  return (
    <>
      <PageTitle title="Cuentas hospitalarias" />
      <Card>
        <p>Esta sección del portal aún no está disponible.</p>
      </Card>
    </>
  );
}
