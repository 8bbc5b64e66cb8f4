import { Card } from "../../components/ui/Card.tsx";
import { AccessesView } from "./AccessesView.tsx";
import { DataExportSection } from "./DataExportSection.tsx";
import { RequestsSection } from "./RequestsSection.tsx";
import "./data-rights.css";

/** The three sections issue 28 adds to a patient's 'Mis datos' (Law 21.719: access, portability, rectification…). */
export function MyDataRights() {
  return (
    <>
      <Card title="Descargar mis datos" className="data-rights">
        <DataExportSection />
      </Card>
      <Card title="Accesos a mis datos" className="data-rights">
        <p>Quién leyó o cambió sus datos en el portal, y cuándo: usted, el personal de la clínica o los sistemas de la clínica.</p>
        <AccessesView />
      </Card>
      <Card title="Solicitudes" className="data-rights">
        <RequestsSection />
      </Card>
    </>
  );
}
