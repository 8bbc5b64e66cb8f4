import { Card } from "../../components/ui/Card.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import type { EditUserForm } from "./PersonalDataForm.tsx";
import { chileToday } from "../../lib/dates.ts";

/** 'Datos de contacto' of the edit-user screen: e-mail ('Email inválido'), phone and birth date. */
export function ContactDataForm({ form }: { form: EditUserForm }) {
  return (
    <Card title="Datos de contacto" className="users-card">
      <div className="form__grid">
        <TextField label="Correo electrónico" type="email" inputMode="email" autoComplete="off" {...form.field("email")} />
        <TextField
          label="Teléfono"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          placeholder="+56912345678"
          {...form.field("phoneNumber")}
        />
        <TextField label="Fecha de nacimiento" type="date" min="1900-01-01" max={chileToday()} {...form.field("birthDate")} />
      </div>
    </Card>
  );
}
