import {
  useId,
  type InputHTMLAttributes,
  type Key,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useServerMessage } from "~/components/server-message";

/** Errors as conform hands them over; empty strings mark a field invalid without a visible text. */
export type ListOfErrors = Array<string | null | undefined> | null | undefined;

/** conform's get*Props helpers include a `key` (it remounts the control on reset). */
type WithKey = { key?: Key | null };

export type FieldInputProps = InputHTMLAttributes<HTMLInputElement> & WithKey;
export type FieldTextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & WithKey;
export type FieldSelectProps = SelectHTMLAttributes<HTMLSelectElement> & WithKey;

/** The list of messages under a field. Renders nothing when there is nothing to say. */
export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const visible = visibleErrors(errors);
  // The server's (and the schema's) messages are English: shown in the page's language.
  const serverMessage = useServerMessage();
  if (!visible.length) return null;
  return (
    <ul id={id} className="error-list">
      {visible.map((error) => (
        <li key={error} className="error-list__item">
          {serverMessage(error)}
        </li>
      ))}
    </ul>
  );
}

/** A labelled text input with its error list (Epic Stack style). */
export function Field({
  label,
  inputProps,
  errors,
  className,
}: {
  label: ReactNode;
  inputProps: FieldInputProps;
  errors?: ListOfErrors;
  className?: string;
}) {
  const { key, className: inputClassName, ...rest } = inputProps;
  const wiring = useFieldWiring(inputProps.id, errors, inputProps["aria-describedby"]);
  return (
    <FieldShell className={className} label={label} wiring={wiring} errors={errors}>
      <input
        key={key}
        {...rest}
        id={wiring.id}
        aria-invalid={wiring.invalid || undefined}
        aria-describedby={wiring.describedBy}
        className={controlClass(wiring.invalid, inputClassName)}
      />
    </FieldShell>
  );
}

/** Same as Field, for multi-line text. */
export function TextareaField({
  label,
  textareaProps,
  errors,
  className,
}: {
  label: ReactNode;
  textareaProps: FieldTextareaProps;
  errors?: ListOfErrors;
  className?: string;
}) {
  const { key, className: inputClassName, ...rest } = textareaProps;
  const wiring = useFieldWiring(textareaProps.id, errors, textareaProps["aria-describedby"]);
  return (
    <FieldShell className={className} label={label} wiring={wiring} errors={errors}>
      <textarea
        key={key}
        {...rest}
        id={wiring.id}
        aria-invalid={wiring.invalid || undefined}
        aria-describedby={wiring.describedBy}
        className={controlClass(wiring.invalid, inputClassName, "field__input--textarea")}
      />
    </FieldShell>
  );
}

/** Same as Field, for a <select>; pass the <option>s as children. */
export function SelectField({
  label,
  selectProps,
  errors,
  className,
  children,
}: {
  label: ReactNode;
  selectProps: FieldSelectProps;
  errors?: ListOfErrors;
  className?: string;
  children: ReactNode;
}) {
  const { key, className: inputClassName, ...rest } = selectProps;
  const wiring = useFieldWiring(selectProps.id, errors, selectProps["aria-describedby"]);
  return (
    <FieldShell className={className} label={label} wiring={wiring} errors={errors}>
      <select
        key={key}
        {...rest}
        id={wiring.id}
        aria-invalid={wiring.invalid || undefined}
        aria-describedby={wiring.describedBy}
        className={controlClass(wiring.invalid, inputClassName, "field__input--select")}
      >
        {children}
      </select>
    </FieldShell>
  );
}

interface Wiring {
  id: string;
  errorId: string;
  invalid: boolean;
  describedBy: string | undefined;
}

function FieldShell({
  className,
  label,
  wiring,
  errors,
  children,
}: {
  className?: string;
  label: ReactNode;
  wiring: Wiring;
  errors: ListOfErrors;
  children: ReactNode;
}) {
  return (
    <div className={["field", className].filter(Boolean).join(" ")}>
      <label className="field__label" htmlFor={wiring.id}>
        {label}
      </label>
      {children}
      {/* Always present with a reserved height, so an error appearing never moves what is below. */}
      <div className="field__errors">
        <ErrorList id={wiring.errorId} errors={errors} />
      </div>
    </div>
  );
}

function useFieldWiring(givenId: string | undefined, errors: ListOfErrors, givenDescribedBy: string | undefined): Wiring {
  const fallbackId = useId();
  const id = givenId ?? fallbackId;
  // conform names its error element `${id}-error` too, so its own aria-describedby agrees with ours.
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  const showsErrors = visibleErrors(errors).length > 0;
  // Keep any other descriptions the caller wired, but only point at the error list when it exists.
  const others = (givenDescribedBy ?? "").split(/\s+/).filter((token) => token && token !== errorId);
  const describedBy = [...(showsErrors ? [errorId] : []), ...others].join(" ") || undefined;
  return { id, errorId, invalid, describedBy };
}

function visibleErrors(errors: ListOfErrors): string[] {
  return (errors ?? []).filter((error): error is string => Boolean(error));
}

function controlClass(invalid: boolean, extra?: string, variant?: string) {
  return ["field__input", variant, invalid ? "field__input--invalid shake" : null, extra].filter(Boolean).join(" ");
}
