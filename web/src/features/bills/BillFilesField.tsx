import { useRef, useState, type DragEvent } from "react";
import type { BillFileDto } from "@contract/bills.dto.ts";
import { pickedFileProblem } from "@contract/bills.schemas.ts";
import { showToast } from "../../lib/overlay-store.ts";

export interface PendingFile {
  key: string;
  file: File;
  /** 0–1 while uploading; null before. */
  progress: number | null;
  failed?: boolean;
}

export interface BillFilesFieldProps {
  stored: BillFileDto[];
  removed: string[];
  pending: PendingFile[];
  onToggleRemove(path: string): void;
  onAdd(files: File[]): void;
  onDiscard(key: string): void;
}

/**
 * The PDFs of a bill (SPEC §2, §5): drop files or pick them; each is checked at once (PDF only, 2 MB at most) and
 * shows a progress bar while it uploads. Stored files can be marked for removal (removed on 'Guardar cambios').
 */
export function BillFilesField({ stored, removed, pending, onToggleRemove, onAdd, onDiscard }: BillFilesFieldProps) {
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  function accept(list: FileList | null) {
    const accepted: File[] = [];
    for (const file of Array.from(list ?? [])) {
      const problem = pickedFileProblem(file);
      if (problem) showToast(problem);
      else accepted.push(file);
    }
    if (accepted.length) onAdd(accepted);
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    accept(event.dataTransfer.files);
  };

  return (
    <div className="bill-files">
      <span className="field__label">Documentos PDF</span>
      <div
        className={`bill-files__drop${dragging ? " bill-files__drop--active" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Arrastre aquí los archivos PDF (máximo 2MB cada uno) o</p>
        <button type="button" className="btn btn--secondary" onClick={() => picker.current?.click()}>
          Seleccionar archivos
        </button>
        <input
          ref={picker}
          type="file"
          accept="application/pdf"
          multiple
          hidden
          aria-label="Seleccionar archivos PDF"
          onChange={(event) => {
            accept(event.target.files);
            event.target.value = "";
          }}
        />
      </div>
      <ul className="bill-files__list">
        {stored.map((file) => {
          const marked = removed.includes(file.path);
          return (
            <li key={file.path} className={marked ? "bill-files__item bill-files__item--removed" : "bill-files__item"}>
              <span className="bill-files__name">{file.fileName}</span>
              <button
                type="button"
                className="btn btn--link"
                onClick={() => onToggleRemove(file.path)}
                aria-label={`${marked ? "Conservar" : "Quitar"} ${file.fileName}`}
              >
                {marked ? "Conservar" : "Quitar"}
              </button>
            </li>
          );
        })}
        {pending.map((item) => (
          <li key={item.key} className="bill-files__item bill-files__item--new">
            <span className="bill-files__name">{item.file.name}</span>
            {item.progress === null ? (
              <button type="button" className="btn btn--link" onClick={() => onDiscard(item.key)} aria-label={`Quitar ${item.file.name}`}>
                Quitar
              </button>
            ) : (
              <progress
                className={item.failed ? "bill-files__progress bill-files__progress--failed" : "bill-files__progress"}
                max={1}
                value={item.progress}
                aria-label={`Subida de ${item.file.name}`}
              />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
