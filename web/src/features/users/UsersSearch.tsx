import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/Button.tsx";

export interface UsersSearchProps {
  /** The search applied now (the box starts with it). */
  value: string;
  /** 'Buscar' or Enter: applies the typed text. */
  onSearch(value: string): void;
}

/** Search box over RUT, e-mail and names, with 'Buscar'. */
export function UsersSearch({ value, onSearch }: UsersSearchProps) {
  const [draft, setDraft] = useState(value);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(draft.trim());
  }

  return (
    <form className="users-search" role="search" onSubmit={submit}>
      <label className="field__label" htmlFor="users-search-input">
        Buscar usuario
      </label>
      <div className="users-search__row">
        <input
          id="users-search-input"
          className="field__input"
          type="search"
          name="param"
          placeholder="RUT, Correo, Nombre, Apellidos"
          maxLength={100}
          autoComplete="off"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit">Buscar</Button>
      </div>
    </form>
  );
}
