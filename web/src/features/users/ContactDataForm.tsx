import { Card } from "../../components/ui/Card.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { editUserText, type EditUserForm } from "./PersonalDataForm.tsx";
import { chileToday } from "../../lib/dates.ts";

/** 'Datos de contacto' of the edit-user screen: e-mail ('Email inválido'), phone and birth date. */
export function ContactDataForm({ form }: { form: EditUserForm }) {
  return (
    <Card title="Datos de contacto" className="users-card">
      <div className="form__grid">
        <TextField type="email" inputMode="email" autoComplete="off" {...editUserText(form, "email")} />
        <TextField type="tel" inputMode="tel" autoComplete="off" placeholder="+56912345678" {...editUserText(form, "phoneNumber")} />
        <TextField type="date" min="1900-01-01" max={chileToday()} {...editUserText(form, "birthDate")} />
      </div>
    </Card>
  );
}
