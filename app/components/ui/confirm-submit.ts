import type { FormEvent } from "react";

/**
 * A form's onSubmit that asks first and submits only on OK (deletes, revokes). Without JavaScript
 * there is no question: the form posts at once, and the server's own rules still hold.
 */
export function confirmSubmit(question: string) {
  return (event: FormEvent<HTMLFormElement>) => {
    if (!window.confirm(question)) event.preventDefault();
  };
}
